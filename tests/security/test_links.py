"""Where addresses sit in a line (``links``): their words name a place, the intent layer skips them."""

from __future__ import annotations

from pi_memory.security.links import links


def _spans(text: str) -> list[str]:
    return [text[lo:hi] for lo, hi in links(text)[0]]


def test_urls_addresses_channels_and_bare_hosts_are_found() -> None:
    text = "Post to https://hooks.example.net/x, mail ops@corp.example.org, ping #deploy-bot, relay.botnet.io:6667/q"
    assert _spans(text) == [
        "https://hooks.example.net/x,",
        "ops@corp.example.org",
        "#deploy-bot",
        "relay.botnet.io:6667/q",
    ]
    assert [text[lo:hi] for lo, hi in links(text)[1]] == ["relay.botnet.io:6667/q"]


def test_file_names_and_paths_are_not_hosts() -> None:
    assert _spans("Edit setup.py and notes.txt, then read secrets.yml and ~/docs/site.com.bak") == []
