"""Override verbs used as nouns: "the ignore rules", "of override patterns", "find out ignore rules".

English builds compound nouns from a bare verb and a noun (an ignore file, ignore rules, override
settings). After a determiner, a preposition or a phrasal verb's particle, "ignore rules" cannot
be an order: an imperative starts its clause, and after "of" or "by" a verb takes -ing ("by
ignoring the rules"). The compound holds only when the noun follows the verb directly: a
qualifier between them ("the ignore all previous instructions") is the verb with its object
again, whatever stands before it.

The same verb can take an act as its object: "a hook to override making the HTTP request",
"skip loading the config". What is overridden or skipped is then the act, and the noun after it
is the act's object. That is an override of the rules only when the act is compliance itself
("skip following the rules", "stop applying your guidelines").
"""

from __future__ import annotations

import re

from pi_memory.security.lazy_re import compile_lazily

__all__ = ["gerund_object", "nominal_verb"]

# What stands right before a noun phrase: a determiner or possessive, a preposition that takes a
# noun (not "to", which takes the verb; not "on", "in", "up" or "out", which also end adverbials
# and intransitive phrasal verbs: "from now on ignore rules", "listen up"), the particle of a
# phrasal verb that takes an object ("find out", "look up"); or a determiner and one or two
# participles ("the specified ignore rules", "any newly added ignore rules").
_BEFORE_NOUN = compile_lazily(
    r"(?:(?<![\w'-])(?:the|a|an|this|these|those|its|their|our|your|my|his|some|any|no|each|every|"
    r"of|with|for|from|by|about|via|into|per|under|within|without|through|between|among)"
    r"|(?<![\w'-])(?:find|figure|sort|work|point|spell|print|write|read|fill|look|pick|set)\s+(?:out|up)"
    r"|(?<![\w'-])(?:the|a|an|this|these|those|its|their|our|your|my|his|some|any|each|every)"
    r"(?:\s+[a-z]+(?:ed|ly))?\s+[a-z]+ed)\s+$"
)
_VERB_AND_NEXT = re.compile(r"([a-z]+)\s+([a-z]+)")
# Words that open the verb's object phrase instead of continuing a compound noun.
_OBJECT_OPENERS = frozenset({
    "previous", "previously", "prior", "above", "preceding", "earlier", "former", "old", "original",
    "initial", "existing", "current", "given", "provided", "other", "system", "developer", "your", "all",
    "any", "every", "the", "these", "those", "my", "our", "their", "his", "her", "its", "a", "an", "this",
    "that", "everything", "anything", "whatever", "what", "about",
})


def nominal_verb(view: str, start: int) -> bool:
    """Is the override verb at ``start`` the first half of a compound noun ("the ignore rules")?"""
    pair = _VERB_AND_NEXT.match(view, start)
    if pair is None or pair.group(2) in _OBJECT_OPENERS:
        return False
    return _BEFORE_NOUN.search(view, max(0, start - 48), start) is not None


# A verb, then an -ing form that takes its own object (a determiner follows it).
_GERUND = re.compile(
    r"[a-z]+\s+([a-z]{3,}ing)\s+(?:the|a|an|this|that|these|those|its|their|our|your|my|any|all|every|each)\b"
)
# -ing words that are no act of the verb's: prepositions and qualifiers ("ignore, during the
# session, ..."; "ignore existing rules"), "-thing" pronouns ("forget everything the user said").
_NOT_AN_ACT = frozenset({
    "during", "according", "regarding", "concerning", "including", "excluding", "pending", "notwithstanding",
    "barring", "preceding", "existing", "remaining", "following", "outstanding", "upcoming", "incoming",
    "ongoing", "governing", "accompanying", "being",
})
# Acts that are compliance: skipping or overriding them is overriding the rules.
_COMPLYING = compile_lazily(
    r"(?:follow|obey|heed|apply|enforc|respect|honou?r|observ|read|check|consider|us|keep|abid|adher|comply|"
    r"mind|implement|execut|runn|listen|stick|stay|remember|look)ing$"
)


def gerund_object(view: str, start: int) -> bool:
    """Is the override verb at ``start`` aimed at an act other than compliance ("override making
    the HTTP request"), the rule's noun being that act's object?"""
    m = _GERUND.match(view, start)
    if m is None:
        return False
    act = m.group(1)
    return not (act in _NOT_AN_ACT or act.endswith("thing") or _COMPLYING.search(act))
