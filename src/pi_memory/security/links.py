"""Where addresses sit in a line: URLs, e-mail addresses, channel names and bare host names.

The intent layer reads a note's wording, not its addresses: the words inside a URL
(``https://ignore-previous.example/``), an e-mail address or a channel's name (``#deploy-bot``)
name a place and say nothing, so ``intent_match`` skips the spans found here. Linear in the text.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from pi_memory.security.lazy_re import compile_lazily

#: A URL, an e-mail address, or a channel's name (``#deploy-bot``: its words name it, they say nothing).
#: Every alternative opens with a literal (the look-behind comes after the ``#``), so ``re`` skips
#: to the next h, f, w, s, @ or # at C speed instead of trying each alternative at every position
#: (6 times faster on 2 KB notes; :data:`_LINK_PLAIN` is the same search written plainly, and
#: ``tests/security/test_fast_regex.py`` checks that both find the same spans).
_ADDRESS = r"[^\s<>\"'`]+"
_LINK = compile_lazily(
    rf"https?://{_ADDRESS}|ftp://{_ADDRESS}|wss?://{_ADDRESS}|s3://{_ADDRESS}|www\.{_ADDRESS}"
    r"|@[\w-]+(?:\.[\w-]+)+|#(?<![\w&#]#)[^\W\d_][\w-]*"
)
_LINK_PLAIN = (
    r"(?:https?|ftp|wss?|s3)://[^\s<>\"'`]+|www\.[^\s<>\"'`]+|@[\w-]+(?:\.[\w-]+)+|(?<![\w&#])#[^\W\d_][\w-]*"
)
#: A host name without a scheme (``relay.example.org``, ``irc.botnet.example:6667/x``) ends in
#: one of these: the generic and reserved top-level domains and the commonest country ones.
#: File names (``setup.py``, ``notes.txt``, ``secrets.yml``) end in none of them. The literal dot
#: comes first, so ``re`` scans for dots at C speed.
HOST_TLDS = (
    "com net org io dev app ai co info biz xyz cloud site online top tech link live pro onion "
    "example test invalid localhost internal local lan ru cn de fr uk jp kr br es it nl eu tk su"
)
_TLD = re.compile(r"\.(?:" + "|".join(HOST_TLDS.split()) + r")(?![\w-])(?:[:/][^\s<>\"'`]*)?")
_HOST_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-.")


def links(text: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """``(start, end)`` of every URL, e-mail address (its local part: at most 64 characters back
    to a space) and bare host name, sorted and disjoint; and of the bare host names alone."""
    out: list[tuple[int, int]] = []
    if "://" in text or "www." in text or "@" in text or "#" in text:
        for m in _LINK.finditer(text):
            lo = m.start()
            if text[lo] == "@":
                back = text.rfind(" ", max(0, lo - 64), lo)
                lo = back + 1 if back >= 0 else max(0, lo - 64)
                lo = max(lo, out[-1][1] if out else 0)
            out.append((lo, m.end()))
    hosts = _hosts(text, out)
    return (sorted(out + hosts) if hosts else out), hosts


def _hosts(text: str, links: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``(start, end)`` of every host name written without a scheme, outside ``links``."""
    if "." not in text:
        return []
    out: list[tuple[int, int]] = []
    starts = [lo for lo, _ in links]
    for m in _TLD.finditer(text):
        lo = m.start()
        i = bisect_right(starts, lo) - 1
        if i >= 0 and lo < links[i][1]:
            continue  # inside a URL or an e-mail address already
        while lo > 0 and text[lo - 1] in _HOST_CHARS and m.start() - lo < 253:
            lo -= 1
        if text[lo] == "." and lo > 0 and text[lo - 1] in ">}]" and lo < m.start():
            pass  # the first label is a placeholder for the data: "<token>.dns.example.net"
        elif lo == m.start() or text[lo] in ".-" or (lo > 0 and text[lo - 1] in "@/\\_"):
            continue  # no label before the dot, or part of a path or an address
        if out and lo < out[-1][1]:
            continue
        out.append((lo, m.end()))
    return out
