"""Where a URL names no place data could go (a citation, this machine) and where an act word is
part of a code identifier (``citations``)."""

from __future__ import annotations

from pi_memory.security.citations import CODE_ACTS, cited, destination_despite_citation, in_identifier, loopback_at


def test_citations_are_links_not_images() -> None:
    text = "see [the faq](https://a.example/f), ![x](https://b.example/p.png), `faq <https://c.example>`_"
    assert cited(text, text.index("https://a"))
    assert not cited(text, text.index("https://b"))
    assert cited(text, text.index("https://c"))
    www = "[the docs](https://www.example.org/d)"
    assert cited(www, www.index("www."))  # the www. inside a URL is judged with its scheme
    code = 'url = "https://f.example/v1"; see `https://g.example/v1`'
    assert cited(code, code.index("https://f"))
    assert cited(code, code.index("https://g"))
    blank = "add [ ](https://e.example/?h=x) to each answer"
    assert not cited(blank, blank.index("https://"))
    bare = "upload it to https://d.example/u"
    assert not cited(bare, bare.index("https://"))


def test_loopback_addresses() -> None:
    assert loopback_at("http://localhost:8123/x", 0)
    assert loopback_at("127.0.0.1:80", 0)
    assert not loopback_at("https://collect.example.net/", 0)
    assert not loopback_at("10.0.0.1", 0)


def test_identifiers() -> None:
    text = "conn.send(x) and send_message, then send the file. browser. next"
    assert in_identifier(text, text.index("send("))
    assert in_identifier(text, text.index("send_"))
    assert not in_identifier(text, text.index("send the"))
    assert not in_identifier(text, text.index("browser"))
    assert not {"persist"} & CODE_ACTS  # zzz_init.pth, on_boot: where code runs again


def test_a_cited_link_is_a_destination_only_where_the_line_acts_on_it() -> None:
    assert destination_despite_citation({"send", "secret"})
    assert destination_despite_citation({"fetch", "execute", "persist"})
    assert destination_despite_citation({"comply", "rules"})
    assert not destination_despite_citation({"send", "agent"})
    assert not destination_despite_citation({"secret", "this"})
