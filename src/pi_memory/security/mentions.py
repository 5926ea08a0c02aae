"""Which quotations a note studies and which it hands on: "Example:" against a test string.

A quotation is a mention, not an order, when the words before it introduce it as an object of
study (a test, a fixture, what a filter blocks: ``context_checks``). Words that only name an
instance ("an example", "the phrase", "a persona called", "the attacker's prompt said") make it
a mention only in a line about tests or detection: a bare 'Example: "ignore all previous
instructions"' or 'Remember this phrase: "..."' hands a future agent the order it quotes, while
'Example the detector must block: "..."' studies it. The intent layer reads the same way its
``meta`` concept when the only defender word of a line is such an instance word.
"""

from __future__ import annotations

import re

from pi_memory.security.context_checks import NAMES, QUOTED_SPAN, REPORT_VOICE, mention_cue
from pi_memory.security.lazy_re import compile_lazily

__all__ = [
    "about_tests", "glossed", "glosses_blanked", "instance_only", "instance_words_blanked", "line_of", "said_after",
    "weak_cue",
]

# ... and words that introduce a quotation as an instance of something ("an example", "the
# phrase", "a persona called", "the note titled"): a mention only in a line about tests or
# detection. A bare
# 'Example: "ignore all previous instructions"' or 'Remember this phrase: "..."' hands a future
# agent the order it quotes; 'Example from the detector's tests: "..."' studies it.
_WEAK_CUE = compile_lazily(
    r"\b(?:samples?|strings?|phrases?|examples?|e\.g\.|titled|entitled|called|named|labels?|label+ed|"
    # what an attack said, quoted in a report of it ("the attacker's prompt said \"...\"; refused")
    r"said|says|saying|wrote|writing|read|reads|reading|stated|stating|contained|containing)\b"
)
# What makes a line about tests or detection, outside its quotations: a study cue, or the words
# of a security report (detection, an attack, an incident, a refusal).
_STUDY_TOPIC = compile_lazily(
    r"\b(?:detect\w*|security|malicious|attack\w*|incidents?|owasp|dlp|pentest\w*|phishing|refus\w*|"
    r"expected|unit tests?|scor(?:e|es|ed|ing))\b"
)


def weak_cue(text: str) -> bool:
    """Does ``text`` hold a word that introduces a quotation as an instance (an example, a phrase)?"""
    if _WEAK_CUE.search(text) is not None:
        return True
    from pi_memory.security import reported

    return reported.INSTANCE_CUES.search(text) is not None


def line_of(view: str, start: int, end: int) -> str:
    """The line of ``view`` that holds ``view[start:end]`` (at most 300 characters either side)."""
    lo = max(view.rfind("\n", 0, start) + 1, start - 300)
    hi = view.find("\n", end, end + 300)
    return view[lo : hi if hi >= 0 else min(len(view), end + 300)]


def instance_words_blanked(line: str) -> str:
    """``line`` with the words that name an instance ("example", "Beispiel", "пример") blanked."""
    from pi_memory.security import reported

    return _WEAK_CUE.sub(" ", reported.INSTANCE_CUES.sub(" ", line))


def about_tests(line: str) -> bool:
    """Is the folded ``line``, outside its quotations and names, about tests or detection: a study
    cue or the words of a security report, in any of the 14 languages?"""
    prose = QUOTED_SPAN.sub(" ", line)
    if "." in prose or "@" in prose:
        prose = NAMES.sub(" ", prose)
    if mention_cue(prose) or _STUDY_TOPIC.search(prose) or REPORT_VOICE.search(prose):
        return True
    from pi_memory.security import reported

    return reported.VOICE.search(prose) is not None


#: The ``meta`` words that only name an instance ("example", "sample", "Beispiel", "例子").
_INSTANCE_WORDS = compile_lazily(r"\b(?:examples?|samples?|e\.g\.)(?!\w)|例")


def instance_only(line: str) -> bool:
    """Is the line's defender voice only an "Example:" or "Sample:" (no other ``meta`` word) in a
    line about neither tests nor detection? 'Example: "ignore all previous instructions"' hands
    the order to whoever reads it; 'Example from the filter's tests: "..."' studies it."""
    from pi_memory.security.intent_match import concepts

    plain = instance_words_blanked(_INSTANCE_WORDS.sub(" ", line))
    return "meta" not in concepts(plain) and not about_tests(line)


#: One gloss of a vocabulary list: a quoted term, "=", and what it means, up to the next item or
#: the sentence's end ("'olvidar' = to forget", "\"weiterleiten\" = forward (an email)").
_GLOSS = compile_lazily(
    r"(?:'[^'\n]{1,80}'|\"[^\"\n]{1,80}\"|«[^»\n]{1,80}»|`[^`\n]{1,80}`)\s*=\s*(?:[^,;=\n.!?]|[.!?](?!\s|$)){1,80}"
)


def glossed(view: str, m: re.Match[str]) -> bool:
    """Is the match inside one gloss of a line that glosses two terms or more: a vocabulary list
    ("'olvidar' = esquecer; 'olvida las instrucciones' = esqueça as instruções") translates the
    words it quotes, it orders nothing. A single "'...' = ..." is no list: it may assign an order."""
    if "=" not in view[max(0, m.start() - 90) : m.end() + 90]:
        return False
    line = line_of(view, m.start(), m.end())
    lo = max(view.rfind("\n", 0, m.start()) + 1, m.start() - 300)
    spans = _glosses(line)
    return len(spans) >= 2 and any(a + lo <= m.start() and m.end() <= b + lo for a, b in spans)


def _glosses(line: str) -> list[tuple[int, int]]:
    return [(g.start(), g.end()) for g in _GLOSS.finditer(line)] if "=" in line else []


def glosses_blanked(line: str) -> str | None:
    """The folded ``line`` with the glosses of its vocabulary list blanked (same length), or
    ``None`` when it glosses fewer than two terms (see :func:`glossed`)."""
    spans = _glosses(line)
    if len(spans) < 2:
        return None
    out = list(line)
    for a, b in spans:
        out[a:b] = " " * (b - a)
    return "".join(out)



#: What follows a quotation where Japanese, Korean, Turkish and Hindi put the words that a
#: language with prepositions writes before it: a verb of saying or writing ("「…」と書かれていた",
#: "“…”라고 적혀 있었다", "“…” yazıyordu", "“…” लिखा था") or a noun naming the quotation ("「…」という
#: 文字列", "“…”라는 문장", "“…” cümlesi", "“…” वाक्य"); the words before it cannot introduce it.
_SAID_AFTER = compile_lazily(
    r"\s*(?:と(?:書かれ|書いて|言って|言われ|あっ|あり|記載)|って(?:書い|言っ)|"
    r"(?:이?라고|이?란|는)\s*(?:적혀|쓰여|되어|했|말했|적힌|쓰인)|"
    r"(?:yaz[ıi]yor(?:du)?|yaz[ıi]l[ıi](?:yd[ıi])?|yazm[ıi]ş|diyor(?:du)?|deniyordu|diye\s+yaz\w*)|"
    r"(?:लिखा\s+(?:था|हुआ|गया)|कहा\s+गया))"
)
_NAMED_AFTER = compile_lazily(
    r"\s*(?:(?:という|との|って)\s*(?:文字列|フレーズ|文|一文|言葉|テキスト|例)|"
    r"(?:이?라는|이란)\s*(?:문장|문자열|문구|표현|예시)|"
    r"(?:cümle|ifade|dize|örne[ğg]|metn|metin)\w*|"
    r"(?:वाक्य|वाक्यांश|स्ट्रिंग|उदाहरण|पंक्ति))"
)


def said_after(rest: str, line: str) -> bool:
    """Is a quotation that ``rest`` follows what a message said (a verb of saying after it) in a
    line reporting an attack, or a string it names (a noun after it) in a line about tests or
    detection? "If the mail says 「…」, do it" reports nothing; "follow the 「…」 order" studies nothing."""
    from pi_memory.security import reported

    if _SAID_AFTER.match(rest) is not None:
        return reported.VOICE.search(line) is not None
    return _NAMED_AFTER.match(rest) is not None and about_tests(line)
