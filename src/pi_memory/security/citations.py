"""Where a URL names no place data could go: a citation the reader follows, or this machine.

A Markdown link ``[the FAQ](https://...)``, a reST link ```the FAQ <https://...>`_``, an autolink
``<https://...>``, an HTML anchor ``<a href="https://...">`` or a URL after "see" points the reader
at a page: it is how documentation cites, credits and links, not a place a note tells the agent to
send data. A URL opening a string literal in code (``base_url="https://..."``) or written in code
font names the address a program is set up with. The intent layer reads such a URL as a
destination only when its line also acts on it (:data:`ACTED_ON`: sends a secret, takes orders,
fetches and runs): ``send the token to [the form](https://...)``; code that itself sends a secret
to an address is the rules' (``secret_to_network``). An image's address (``![x](https://...)``)
and a link with a blank label (``[ ](https://...)``) are no citation: the reply fetches the one
unclicked and shows nothing of the other. A URL or an IP address of this machine
(``http://localhost:8123``, ``127.0.0.1``) is where a developer's own server listens: nothing sent
there leaves the machine, the reading the exfiltration rules give loopback too (``destinations``).

Words joined into a code identifier (``conn.send(...)``, ``send_message``) are read here too
(:func:`in_identifier`): they name what an API does. Linear in the text.
"""

from __future__ import annotations

import re

from pi_memory.security.destinations import is_loopback

_HOST = re.compile(r"[a-z][a-z0-9+.-]*://(?:[^\s/@'\"<>]*@)?(\[[0-9a-f:.]+\]|[\w.-]+)")

#: A URL written after a word that points the reader at a page, in the covered languages that
#: write one before it (accents folded): "see", "visit", "check out", "refer to", "available at",
#: "more details at", "ver", "véase", "voir", "siehe", "vedi", "veja", "см.", "bkz.", "xem".
_POINTED_AT = re.compile(
    r"(?<!\w)(?:see|visit|read|check(?:\s+out)?|refer\s+to|(?:available|found|documented|hosted|described|"
    r"explained|published|listed)\s+(?:at|on|in)|(?:more|further)\s+(?:info\w*|details|information)(?:\s+(?:at|on|in))?|"
    r"ver|vease|voir|siehe|vedi|veja|см\.?|смотрите|bkz\.?|xem)\s*:?\s*$"
)
#: A URL opening a string literal of code (an assignment, a key's value, an argument, a list
#: item) or an inline code span: the address a program is configured with, named, not ordered.
_LITERAL = re.compile(r"(?:[=:(\[,]\s*[\"']|`)$")
#: How far back a Markdown link's ``[`` or a reST link's opening backquote is looked for.
_LABEL_REACH = 300


def cited(text: str, pos: int) -> bool:
    """Is the URL starting at ``pos`` of folded ``text`` a citation or a code literal (not an image)?
    The ``www.`` after a scheme is the same URL: judged where the scheme begins."""
    if pos >= 3 and text.startswith("://", pos - 3):
        pos -= 3
        while pos > 0 and (text[pos - 1].isalnum() or text[pos - 1] in "+.-"):
            pos -= 1
    before = text[max(0, pos - 6) : pos]
    if before.endswith("]("):
        opening = text.rfind("[", max(0, pos - _LABEL_REACH), pos - 2)
        if opening < 0 or (opening > 0 and text[opening - 1] == "!"):
            return False
        # A blank label shows the reader nothing to follow: an invisible link, not a citation.
        return any(ch.isalnum() for ch in text[opening + 1 : pos - 2])
    if _LITERAL.search(before) is not None:
        return True  # base_url="https://...", {url: 'https://...'}, `https://...`: a program's setting
    if _POINTED_AT.search(text, max(0, pos - 40), pos) is not None:
        return True  # "see https://...", "visit https://...", "siehe https://...": a page to read
    if before.endswith("<"):
        return True  # a reST link's target (`label <url>`_) or a Markdown autolink (<url>)
    return before.endswith(("href=\"", "href='"))


#: What a line must hold besides a cited URL for the URL to read as a place it acts on: a secret
#: sent ("send the token to [the form](...)"), orders taken from it ("see https://... and follow
#: it"), or a payload fetched and run ("download and run [the installer](...)").
ACTED_ON = (
    (frozenset({"send"}), frozenset({"secret", "cred"})),
    (frozenset({"comply"}), frozenset({"rules", "channel", "execute"})),
    (frozenset({"fetch", "loadcode"}), frozenset({"execute"})),
)


def destination_despite_citation(marks: set[str]) -> bool:
    """Does a line whose only URLs are cited still act on one (:data:`ACTED_ON`)?"""
    return any(not marks.isdisjoint(a) and not marks.isdisjoint(b) for a, b in ACTED_ON)


def loopback_at(text: str, pos: int) -> bool:
    """Is the URL or IP address starting at ``pos`` of folded ``text`` this machine's own?"""
    m = _HOST.match(text, pos)
    if m is not None:
        return is_loopback(m.group(1).strip("[]").rstrip("."))
    end = pos
    while end < len(text) and (text[end].isdigit() or text[end] == "."):
        end += 1
    return is_loopback(text[pos:end].rstrip("."))


#: Acts a word names when it is part of a code identifier (``conn.send(...)``, ``send_message``,
#: ``sandbox.execute(code)``, ``user_downloads_dir``): the name of what an API does, read by
#: whoever calls it, not an order to the agent. Code that itself moves a secret out is the rules'
#: (``code_exfil``, ``secret_to_network``); a secret's name in code (``OPENAI_API_KEY``) stays a
#: secret, and so does a start-up name (``zzz_init.pth``, ``on_boot``): where code runs again.
CODE_ACTS = frozenset({"send", "execute", "channel", "fetch"})


def in_identifier(text: str, pos: int) -> bool:
    """Is the word starting at ``pos`` of folded ``text`` joined to another by ``_`` or ``.``, or
    called (``send(``)? A word at a sentence's end (``... the browser. Then``) is not."""
    if pos >= 2 and text[pos - 1] in "._" and text[pos - 2].isalnum():
        return True
    end = pos
    while end < len(text) and text[end].isalnum():
        end += 1
    nxt = text[end : end + 2]
    return nxt[:1] in ("_", "(") or (nxt[:1] == "." and nxt[1:].isalpha())
