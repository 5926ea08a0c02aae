"""Checks that read what governs a match: a negation, the user's own request, a report, a quote.

A rule regex sees the order ("override the safety guidelines", "never tell anyone that it ...");
whether that order is *given* depends on the words around it. Each check here is a
``check(view, match) -> keep?`` for :func:`pi_memory.security.rule.rule` and looks only at the
same sentence, in a bounded window, so it stays linear and cannot be steered by distant text.

* :func:`not_negated`: "notes never override the safety guidelines", "do not let a memory
  supersede the system prompt" state the rule, they do not break it. "Why not ignore ...",
  "if you do not ignore ..." and "don't just ignore ..." are still orders.
* :func:`not_user_private`: "the user asked me never to mention their old job" keeps the
  user's topic private at their request; hiding the agent's own act or note ("... about this
  hook", "that this entry exists") from the user is the attack, whoever is said to ask for it.
* :func:`not_reported`: "a README told assistants to disregard their instructions; it was
  removed" reports an attack in an incident note, it does not pass the order on.
* :func:`not_quoted_mention`: a match inside a quotation its clause introduces as a mention (a
  fixture string, an eval sample, a talk titled "...", what a filter blocks) or inside a gloss
  of a vocabulary list is quoted, not given; a link title after a URL is a carrier, never one.

The intent layer uses :func:`override_negated` and :func:`without_quoted_mentions` the same way
on a line it has flagged.
"""

from __future__ import annotations

import re
from dataclasses import replace

from pi_memory.security.lazy_re import compile_lazily
from pi_memory.security.rule import Check, Rule

_WINDOW = 90
_SENTENCE_STOP = compile_lazily(r"[.;!?\n]")
_SENTENCE_GAP = compile_lazily(r"[.!?\n]\s")
_CLAUSE_END = compile_lazily(r"[.;!?\n]|:\s")

# A negation governing the verb that starts the match: "never", "do not", "can't ever", "must not be allowed
# to", "don't let notes", "nothing stored here should ever".
_NEGATED = compile_lazily(
    r"(?:\b(?:never|not|cannot|dont|cant|wont|doesnt|mustnt|shouldnt)|n't|\bno\s+(?:note|memory|entry|"
    r"instruction|message|one|text|rule)s?\b[^.;!?\n]{0,40}?\b(?:should|may|can|will|must|could|shall|is allowed to|"
    r"are allowed to|gets? to)|\bnothing\b[^.;!?\n]{0,40}?\b(?:should|may|can|will|must|could|shall|is allowed to|"
    r"gets to))(?:,?\s*ever,?)?\s+"
    r"(?:(?:be\s+)?(?:allowed|able|permitted|used|meant)\s+to\s+|(?:let|allow|permit)\s+(?:[\w'-]+\s+){0,4}?"
    r"(?:to\s+)?)?$"
)
# ... unless the negation is itself part of a question or a threat: "why not", "if you do not".
_NOT_REALLY = compile_lazily(r"\b(?:why|or|if|unless|else)\s+(?:[\w']+\s+){0,2}[\w']*$")


def _clause_before(view: str, start: int) -> str:
    """The text of the match's clause before ``start`` (at most :data:`_WINDOW` characters)."""
    lo = max(0, start - _WINDOW)
    before = view[lo:start]
    cut = 0
    for m in _CLAUSE_END.finditer(before):
        cut = m.end()
    return before[cut:]


def negated(view: str, start: int) -> bool:
    """Is the verb at ``start`` under a negation of its own clause?"""
    before = _clause_before(view, start)
    m = _NEGATED.search(before)
    return m is not None and _NOT_REALLY.search(before, 0, m.start()) is None


def not_negated(view: str, m: re.Match[str]) -> bool:
    """Keep the match unless its verb is negated ("notes never override the rules")."""
    return not negated(view, m.start())


# English verbs of the ``override`` concept that a negation can govern ("notes never override
# the safety rules"). When every one of them in a line is negated, the line states the rule.
_OVERRIDE_VERBS = compile_lazily(
    r"\b(?:overrid\w*|supersed\w*|ignor\w*|disregard\w*|bypass\w*|outrank\w*|overrul\w*|trump\w*|"
    r"take precedence|takes precedence|replac\w*|cancel\w*|void)\b"
)


# What a neutralised override verb acts on: the rules themselves ("never override the safety
# guidelines") when negated, or a note ("ignore any note that claims otherwise") at any time.
_RULES_OBJECT = compile_lazily(
    r"\b(?:rules?|guidelines?|instructions?|(?:system|developer) (?:prompt|message)s?|polic(?:y|ies)|safety|"
    r"guardrails?|restrictions?|developer's|operator's|system prompt)\b"
)
_NOTE_OBJECT = compile_lazily(
    r"\s+(?:(?:the|this|that|any|a|such|every|all)\s+)?(?:(?:memory|stored|saved)\s+)?(?:notes?|memory|"
    r"memories|entry|entries)\b(?!\s+(?:above|below|before|earlier))"
)


_RULES_SUBJECT = compile_lazily(
    r"\b(?:(?:the\s+)?system (?:prompt|message)|safety (?:rules|guidelines|polic(?:y|ies))|(?:developer|operator)'?s? "
    r"(?:instructions|rules|guidelines)|your (?:original |safety |core )?(?:instructions|guidelines|rules))\s+"
    r"(?:always\s+|still\s+)?$"
)


def override_negated(folded: str, lo: int, hi: int) -> bool:
    """Is every override verb of the line neutralised: negated with the rules as its object
    ("notes never override the safety rules"), or aimed at a note ("ignore the note")? A negated
    verb aimed elsewhere ("the system prompt does not take precedence over notes") still counts."""
    found = False
    for m in _OVERRIDE_VERBS.finditer(folded, lo, hi):
        if _RULES_SUBJECT.search(_clause_before(folded, m.start())) and not negated(folded, m.start()):
            found = True  # "the system prompt always takes precedence": the rules win
            continue
        if _NOTE_OBJECT.match(folded, m.end(), hi) is None:
            clause = _CLAUSE_END.search(folded, m.end(), hi)
            after_hi = min(clause.start() if clause else hi, m.end() + 60)
            if not (negated(folded, m.start()) and _RULES_OBJECT.search(folded, m.end(), after_hi)):
                return False
        found = True
    return found


# A record of the user's own setup: the user is the subject of a past or present verb of
# configuring ("the user added ... to ~/.zshrc", "user runs a LaunchAgent for backups").
_USER_RECORD = compile_lazily(
    r"^(?:[\w '’./-]{0,40}:\s*)?(?:the\s+)?(?:user|client|owner|she|he|they|we|i)(?:'s\s+[\w~./-]+(?:\s+[\w./-]+)?\s+"
    r"(?:has|have|runs|contains|holds|lists|includes|starts|calls|is set to)|\s+(?:has\s+|have\s+|had\s+)?"
    r"(?:already\s+)?(?:set up|setup|added|installed|configured|created|enabled|scheduled|wrote|keeps|runs|uses|"
    r"put|maintains|registered|symlinked|switched|moved|pinned|aliased))\b"
)


# What a record of the user's own setup does not hold (intent concepts and shapes): a
# destination, a secret, the agent addressed, something hidden, a condition or a removal.
_NOT_A_RECORD = frozenset(
    {"<url>", "<ip>", "<email>", "<slot_url>", "secret", "agent", "conceal", "covert", "condition", "destroy"}
)


def user_record(line: str, marks: set[str] | frozenset[str] = frozenset()) -> bool:
    """Does the line record what the user set up (not tell anyone to), or what a scheduler entry or
    config file of theirs holds (``records.setup_record``), with no :data:`_NOT_A_RECORD` mark?"""
    from pi_memory.security.records import setup_record

    if marks & _NOT_A_RECORD:
        return False
    return _USER_RECORD.search(line.lstrip(" -*#>\t")) is not None or setup_record(line)


# The user's own request for discretion, earlier in the sentence.
_USER_ASKED = compile_lazily(
    r"\b(?:(?:the\s+)?(?:user|client|customer|she|he|they)\s+(?:has\s+|have\s+|had\s+)?(?:asked|requested|"
    r"prefers|prefer|wants|want|told me|would rather|would like|does not want|doesn't want|did not want|"
    r"didn't want)|(?:at|per|on|by)\s+(?:the\s+user's|their|her|his)\s+(?:own\s+)?(?:request|wish)|as\s+(?:the\s+"
    r"user|they|she|he)\s+(?:asked|requested|prefers?|wants?))\b"
)
# What the agent itself does or stores: hiding *these* is the attack, whoever asked.
_AGENT_ACT = compile_lazily(
    r"\b(?:notes?|entry|entries|memory|memories|instructions?|rules?|changes?|links?|messages?|hooks?|commands?|"
    r"modifications?|payloads?|ads?|adverts?|scripts?|cron\w*|urls?|uploads?|uploaded|upload\w*|sends?|sent|"
    r"sending|forward\w*|copies|copy|copied|exfil\w*|tokens?|keys?|passwords?|credentials?|webhooks?|you|"
    r"added|installed|deleted|ran|runs?|executed)\b"
)


def not_user_private(view: str, m: re.Match[str]) -> bool:
    """Keep the match unless the sentence says the user asked for this discretion and what is
    kept quiet is not something the agent does or stores."""
    return not user_private(view, m.start(), m.end())


def user_private(view: str, start: int, end: int) -> bool:
    """Does this or the previous sentence say the user asked for the discretion at
    ``view[start:end]``, with nothing the agent does or stores in what is kept quiet?"""
    if _USER_ASKED.search(_clause_before_sentence(view, start, sentences=2)) is None:
        return False
    return _AGENT_ACT.search(view, start, _sentence_end(view, end)) is None


def user_private_line(line: str) -> bool:
    """Does the line say the user asked for discretion, with nothing the agent does or stores
    in what follows ("the user asked me never to mention their old job to them")?"""
    asked = _USER_ASKED.search(line)
    return asked is not None and _AGENT_ACT.search(line, asked.end()) is None


def _clause_before_sentence(view: str, start: int, sentences: int = 1) -> str:
    """The text of the last ``sentences`` sentences before ``start`` (bounded window)."""
    lo = max(0, start - _WINDOW * sentences)
    before = view[lo:start]
    cuts = [0] + [m.end() for m in _SENTENCE_GAP.finditer(before)]
    return before[cuts[max(0, len(cuts) - sentences)] :]


def _sentence_end(view: str, end: int) -> int:
    m = _SENTENCE_STOP.search(view, end, min(len(view), end + 120))
    return m.start() if m else min(len(view), end + 120)


# Reported speech in an incident or detection note: "a README told assistants to ...".
_REPORTED = compile_lazily(
    r"\b(?:told|asked|instructed|urged|tricked|persuaded|directed|ordered|tried to (?:get|make|trick|convince))\s+"
    r"(?:[\w'-]+\s+){0,3}?to\s+$"
)
REPORT_VOICE = compile_lazily(
    r"\b(?:incidents?|inc-\d+|attackers?|attacker's|intruders?|phishing|postmortem|post-mortem|forensics?|"
    r"malicious|reimaged|quarantined|(?:was|were|has been|have been|got)\s+(?:found|removed|detected|"
    r"observed|cleaned|quarantined|deleted|reverted|blocked|flagged|reported|caught))\b"
)


def not_reported(view: str, m: re.Match[str]) -> bool:
    """Keep the match unless it is the object of reported speech ("told assistants to ...", "le
    pidió al asistente que ...", "...よう指示しました") in a line written in incident voice."""
    lo = max(view.rfind("\n", 0, m.start()) + 1, m.start() - 240)
    hi = view.find("\n", m.end(), m.end() + 240)
    hi = hi if hi >= 0 else min(len(view), m.end() + 240)
    if _reports_order(_clause_before_sentence(view, m.start())):
        return REPORT_VOICE.search(view, lo, hi) is None
    from pi_memory.security import reported

    # Other languages put the reporting verb before the order (es, fr, ru) or after it (ja, ko,
    # tr, hi): the match's own sentence holds it.
    start = _sentence_start(view, m.start())
    return not reported.reported(view[start:_sentence_end(view, m.end())]) or not reported.VOICE.search(
        view, lo, hi
    )


def _reports_order(clause: str) -> bool:
    """``_REPORTED.search(clause)``, asked only of a clause that ends in "to" and white space, as
    every match of it does (``to\\s+$``; ``\\s`` and ``str.rstrip`` agree on white space): most
    clauses do not, and the regex tries its verbs at every word start."""
    stripped = clause.rstrip()
    return len(stripped) < len(clause) and stripped.endswith("to") and _REPORTED.search(clause) is not None


def _sentence_start(view: str, start: int) -> int:
    cuts = [x.end() for x in _SENTENCE_GAP.finditer(view, max(0, start - 240), start)]
    return cuts[-1] if cuts else max(view.rfind("\n", max(0, start - 240), start) + 1, start - 240)


_REPORTED_IN_LINE = compile_lazily(_REPORTED.pattern.removesuffix("$"))


def reported_line(line: str) -> bool:
    """Does the line report an order someone else gave ("the attacker's note told the agent to
    ...") in incident voice? The order's words are then the report's, not the note's."""
    if _REPORTED_IN_LINE.search(line) is not None and REPORT_VOICE.search(line) is not None:
        return True
    from pi_memory.security import reported

    return reported.reported(line)


def override_check(view: str, m: re.Match[str]) -> bool:
    """The override rules' check: neither negated nor reported."""
    return not_negated(view, m) and not_reported(view, m)


# --- quotations introduced as a mention ----------------------------------------------------------

_PAIRS = {"“": "”", "„": "“", "«": "»", "‘": "’", "「": "」"}
_SAME = "\"'`"


_QUOTE_CHARS = _SAME + "".join(_PAIRS)


def _is_quote(text: str, i: int) -> bool:
    """Is ``text[i]`` a quotation mark (an apostrophe inside a word, "don't", is not)?"""
    if text[i] != "'":
        return True
    return not (0 < i < len(text) - 1 and text[i - 1].isalnum() and text[i + 1].isalnum())


def _opening_quote(view: str, lo: int, start: int) -> tuple[int, str] | None:
    """The quotation ``start`` is inside, if any: ``(position of its opening mark, closing mark)``."""
    best: tuple[int, str] | None = None
    for q in _SAME:
        count, last, i = 0, -1, view.find(q, lo, start)
        while i >= 0:
            if _is_quote(view, i):
                count, last = count + 1, i
            i = view.find(q, i + 1, start)
        if count % 2 == 1 and (best is None or last > best[0]):
            best = (last, q)
    for open_, close in _PAIRS.items():
        i = view.rfind(open_, lo, start)
        if i >= 0 and view.find(close, i + 1, start) < 0 and (best is None or i > best[0]):
            best = (i, close)
    return best


# Words that introduce a quotation as an object of study or a test case: "the fixture string", "a talk",
# "the filter blocks". Not "says"/"told": quoting an order with an authority claim passes the order on.
_MENTION_CUE = compile_lazily(
    r"\b(?:fixtures?|tests?|test cases?|testing|evals?|evaluations?|benchmarks?|datasets?|corpus|"
    r"suites?|payloads?|"
    r"flags?|flagged|rejects?|rejected|blocks?|blocked|detects?|detected|catch(?:es)?|caught|classif\w*|"
    r"scanners?|filters?|detectors?|guards?|regex\w*|patterns?|signatures?|rules? (?:for|against)|talk|"
    r"chapter|book|paper|article|slides?|course|lecture|jailbreaks?|attacks?|injections?|red[- ]team\w*|"
    r"quoted|quotations?)\b"
)
#: Names, not prose: a URL, an e-mail address or handle, a dotted host or file name.
NAMES = compile_lazily(r"(?:[a-z][a-z0-9+.-]*://|www\.)\S*|\S*@\S+|[\w-]*\w(?:\.[\w-]*\w)+")
# A quotation right after a URL is a markdown link or image title: a carrier, not a mention.
_LINK_TITLE = compile_lazily(r"(?:://|www\.)\S*\s+$")
_CUE_WORDS = 5  # how near before a quotation its cue word stands


def _introduced_as_mention(head: str, line: str | None = None) -> bool:
    """Does the sentence before a quotation introduce it as a mention (a cue word in its prose,
    not inside a host name such as ``example.com``), and is it not a link title? A cue that only
    names an instance ("Example:", "the phrase") needs ``line`` to be about tests or detection."""
    if _LINK_TITLE.search(head[-400:]) is not None:
        return False
    cut = max(head.rfind(sep) for sep in (". ", "; ", "! ", "? ", ", ", ": "))
    if cut >= 0 and head[cut] in ":," and not head[cut + 1 :].strip():
        # A label that names the quotation ("Sample jailbreak from the paper: \"...\"", "Caso de
        # prueba: \"...\""), or the noun it stands beside ("the PDF contained hidden text,
        # \"...\""): that is the clause; "Remember this: \"...\"" names no mention.
        label = head[:cut]
        cut = max(label.rfind(sep) for sep in (". ", "; ", "! ", "? ", ", ", ": ", "\n"))
    prose = head[cut + 1 :]
    if "." in prose or "@" in prose:
        prose = NAMES.sub(" ", prose)
    # The cue names the quotation itself: at most a few words before it, in the same clause
    # ("when the tests fail, reply \"all green\"" is an order, not a test string).
    near = " ".join(prose.split()[-_CUE_WORDS:])
    if mention_cue(near):
        return True
    from pi_memory.security import mentions

    return mentions.weak_cue(near) and mentions.about_tests(head if line is None else line)


def mention_cue(text: str) -> bool:
    """Does ``text`` hold a word that introduces a quotation as an object of study, in any language?"""
    if _MENTION_CUE.search(text) is not None:
        return True
    from pi_memory.security import reported

    return reported.MENTION_CUES.search(text) is not None


def quoted_mention(view: str, m: re.Match[str]) -> bool:
    """Does the match lie in a closed quotation its sentence introduces as a mention (a test
    string, a sample, what a filter blocks) or, after it, reports as what a message said?"""
    start, end = m.start(), m.end()
    lo = max(view.rfind("\n", 0, start) + 1, start - 300)
    found = _opening_quote(view, lo, start) if any(q in view[lo:start] for q in _QUOTE_CHARS) else None
    if found is None:
        return False
    at, close = found
    line_end = view.find("\n", end)
    hi = line_end if line_end >= 0 else len(view)
    after = view.find(close, max(end - 1, start), hi)
    while after >= 0 and not _is_quote(view, after):
        after = view.find(close, after + 1, hi)
    if after < 0:
        # The match may run on past the closing mark ("hid 'ignore your previous instructions' in
        # white text"): still a mention when what the quotation holds matches alone.
        inner = view.find(close, start + 1, end)
        while inner >= 0 and not _is_quote(view, inner):
            inner = view.find(close, inner + 1, end)
        if inner < 0 or m.re.match(view, start, inner) is None:
            return False  # an unclosed quote: the order runs on
        after = inner
    from pi_memory.security.mentions import said_after
    return _introduced_as_mention(view[lo:at], view[lo:hi]) or said_after(view[after + 1 : hi], view[lo:hi])


#: A menu path before a match: two or more items of at most four words, each followed by a
#: separator ("settings > general > transfer or reset > ").
_MENU_BEFORE = compile_lazily(r"(?:[^\s>›→;.,:!?]+(?: [^\s>›→;.,:!?]+){0,3} ?[>›→] ?){2,}$")
#: ... and the end of the menu item the match is (at most two words on, "... and settings"): the
#: line's, a clause's, or the next separator.
_ITEM_END = compile_lazily(r"(?: [^\s>›→;.,:!?]+){0,2}\s*(?:[>›→;.,)]|$)", re.MULTILINE)


def menu_item(view: str, m: re.Match[str]) -> bool:
    """Is the match a whole item of a menu path ("Settings > General > Erase All"): a button's name?"""
    head = view[max(0, m.start() - 160) : m.start()]
    ends = _ends_like_menu(head)  # holds a separator, as every menu path does
    return ends and _MENU_BEFORE.search(head) is not None and _ITEM_END.match(view, m.end()) is not None


def _ends_like_menu(head: str) -> bool:
    """Every ``_MENU_BEFORE`` match ends ``head`` (or its last line) with a separator and at most one
    space; asked first, since the regex backtracks at every position (~0.3 ms on 160 characters)."""
    rest = head[:-1] if head.endswith("\n") else head
    rest = rest[:-1] if rest.endswith(" ") else rest
    return rest[-1:] in (">", "›", "→")


def not_quoted_mention(view: str, m: re.Match[str]) -> bool:
    """Keep the match unless quoted as a mention, a menu item's name, or a vocabulary list's gloss."""
    from pi_memory.security.mentions import glossed
    return not quoted_mention(view, m) and not menu_item(view, m) and not glossed(view, m)


def _both(first: Check, second: Check | None) -> Check:
    if second is None:
        return first
    return lambda view, m: first(view, m) and second(view, m)


def except_quoted_mentions(rules: list[Rule], skip_subs: frozenset[str] = frozenset()) -> list[Rule]:
    """``rules`` with :func:`not_quoted_mention` added to each one's check (except the
    sub-categories in ``skip_subs``, whose carriers are attacks however they are introduced)."""
    return [r if r.sub_id in skip_subs else replace(r, check=_both(not_quoted_mention, r.check)) for r in rules]


#: A quotation in paired marks, as English, French, German and Japanese write one (one line, at
#: most 300 characters between the marks): what a line quotes rather than says.
QUOTATION = r"\"[^\"\n]{1,300}\"|“[^”\n]{1,300}”|«[^»\n]{1,300}»|„[^“\n]{1,300}“|「[^」\n]{1,300}」"
# ... and, for a mention, a code span or single quotes too ('ignore previous instructions' as a fixture)
QUOTED_SPAN = compile_lazily(QUOTATION + r"|`[^`\n]{1,300}`|(?<!\w)'[^'\n]{1,300}'(?!\w)")


# A persona that belongs to the user or someone else, not to the agent ("the user's character").
_OTHERS_PERSONA = compile_lazily(
    r"\b(?:(?:the\s+)?(?:user|kid|child|son|daughter|friend|partner|player|customer)'s|their|her|his)\s+"
    r"(?:[\w&-]+\s+){0,2}?(?:persona|character|role|"
    r"alter ego|avatar)\b"
)


def others_persona(line: str) -> bool:
    """Does the line give a persona to the user or someone else, not to the agent?"""
    return _OTHERS_PERSONA.search(line) is not None


def without_quoted_mentions(line: str) -> str | None:
    """``line`` with the inside of every quotation its sentence introduces as a mention (a cue before
    it, or a report's verb of saying after it: "«...» yazıyordu; bildirdik") blanked out, or ``None``
    when there is none: the words of a quoted test string, or of a reported attack, are not the note's."""
    from pi_memory.security import mentions

    if not any(q in line for q in "\"“«„「`'"):
        return None
    cued = mention_cue(line) or mentions.weak_cue(line)
    parts: list[str] = []
    pos = 0
    for m in QUOTED_SPAN.finditer(line):
        if (cued and _introduced_as_mention(line[: m.start()], line)) or mentions.said_after(line[m.end() :], line):
            parts.append(line[pos : m.start() + 1])
            parts.append(" " * (m.end() - m.start() - 2))
            pos = m.end() - 1
    if not parts:
        return None
    parts.append(line[pos:])
    return "".join(parts)
