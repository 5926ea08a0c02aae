"""Rule checks that read what governs a match: a negation, the user's own request, a report.

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
"""

from __future__ import annotations

import re

_WINDOW = 90
_CLAUSE_END = re.compile(r"[.;!?\n]|:\s")

# A negation governing the verb that starts the match: "never", "do not", "can't ever",
# "must not be allowed to", "don't let notes", "nothing stored here should ever".
_NEGATED = re.compile(
    r"(?:\b(?:never|not|cannot|dont|cant|wont|doesnt|mustnt|shouldnt)|n't|\bno\s+(?:note|memory|entry|"
    r"instruction|message|one|text|rule)s?\b[^.;!?\n]{0,40}?\b(?:should|may|can|will|must|could|shall|is allowed to|"
    r"are allowed to|gets? to)|\bnothing\b[^.;!?\n]{0,40}?\b(?:should|may|can|will|must|could|shall|is allowed to|"
    r"gets to))(?:,?\s*ever,?)?\s+"
    r"(?:(?:be\s+)?(?:allowed|able|permitted|used|meant)\s+to\s+|(?:let|allow|permit)\s+(?:[\w'-]+\s+){0,4}?"
    r"(?:to\s+)?)?$"
)
# ... unless the negation is itself part of a question or a threat: "why not", "if you do not".
_NOT_REALLY = re.compile(r"\b(?:why|or|if|unless|else)\s+(?:[\w']+\s+){0,2}[\w']*$")


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


# The user's own request for discretion, earlier in the sentence.
_USER_ASKED = re.compile(
    r"\b(?:(?:the\s+)?(?:user|client|customer|she|he|they)\s+(?:has\s+|have\s+|had\s+)?(?:asked|requested|"
    r"prefers|prefer|wants|want|told me|would rather|would like|does not want|doesn't want|did not want|"
    r"didn't want)|(?:at|per|on|by)\s+(?:the\s+user's|their|her|his)\s+(?:own\s+)?(?:request|wish)|as\s+(?:the\s+"
    r"user|they|she|he)\s+(?:asked|requested|prefers?|wants?))\b"
)
# What the agent itself does or stores: hiding *these* is the attack, whoever asked.
_AGENT_ACT = re.compile(
    r"\b(?:notes?|entry|entries|memory|memories|instructions?|rules?|changes?|links?|messages?|hooks?|commands?|"
    r"modifications?|payloads?|ads?|adverts?|scripts?|cron\w*|urls?|uploads?|uploaded|upload\w*|sends?|sent|"
    r"sending|forward\w*|copies|copy|copied|exfil\w*|tokens?|keys?|passwords?|credentials?|webhooks?|you|"
    r"added|installed|deleted|ran|runs?|executed)\b"
)


def not_user_private(view: str, m: re.Match[str]) -> bool:
    """Keep the match unless the sentence says the user asked for this discretion and what is
    kept quiet is not something the agent does or stores."""
    before = _clause_before_sentence(view, m.start())
    if _USER_ASKED.search(before) is None:
        return True
    rest = view[m.start() : _sentence_end(view, m.end())]
    return _AGENT_ACT.search(rest) is not None


def _clause_before_sentence(view: str, start: int) -> str:
    lo = max(0, start - _WINDOW)
    before = view[lo:start]
    cut = 0
    for m in re.finditer(r"[.!?\n]\s", before):
        cut = m.end()
    return before[cut:]


def _sentence_end(view: str, end: int) -> int:
    m = re.compile(r"[.;!?\n]").search(view, end, min(len(view), end + 120))
    return m.start() if m else min(len(view), end + 120)


# Reported speech in an incident or detection note: "a README told assistants to ...".
_REPORTED = re.compile(
    r"\b(?:told|asked|instructed|urged|tricked|persuaded|directed|ordered|tried to (?:get|make|trick|convince))\s+"
    r"(?:[\w'-]+\s+){0,3}?to\s+$"
)
_REPORT_VOICE = re.compile(
    r"\b(?:incidents?|inc-\d+|attackers?|attacker's|intruders?|phishing|postmortem|post-mortem|forensics?|"
    r"malicious|reimaged|quarantined|(?:was|were|has been|have been|got)\s+(?:found|removed|detected|"
    r"observed|cleaned|quarantined|deleted|reverted|blocked|flagged|reported|caught))\b"
)


def not_reported(view: str, m: re.Match[str]) -> bool:
    """Keep the match unless it is the object of reported speech ("told assistants to ...") in a
    line written in incident voice."""
    before = _clause_before_sentence(view, m.start())
    if _REPORTED.search(before) is None:
        return True
    lo = max(view.rfind("\n", 0, m.start()) + 1, m.start() - 240)
    hi = view.find("\n", m.end(), m.end() + 240)
    return _REPORT_VOICE.search(view, lo, hi if hi >= 0 else min(len(view), m.end() + 240)) is None


def override_check(view: str, m: re.Match[str]) -> bool:
    """The override rules' check: neither negated nor reported."""
    return not_negated(view, m) and not_reported(view, m)
