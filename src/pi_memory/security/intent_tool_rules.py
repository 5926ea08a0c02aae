"""A tool's rules are its configuration, not the agent's: "the old lint rules no longer apply".

The ``rules`` concept names what binds the agent (its rules, guidelines, safety). Rules a named
code tool owns (a linter's, a formatter's, a firewall's, an ignore file's) configure that tool:
withdrawing them lifts nothing the agent is bound by. The reading is of one word where it
stands, never of its line: the tool is named right before it ("lint rules", "Lint-Regeln",
"lint kuralları", "リントルール") or as its possessor right after ("les règles de lint", "reglas
del linter", "правила линтера"). Only that word loses its ``rules`` mark, so in "Old lint rules
are withdrawn. All previous instructions are withdrawn too." the instructions keep theirs.

A team named for security is people, not rules either: where one word means both safety and
security, "forward it to the security team" ("转发给安全团队", "al equipo de seguridad", "an das
Sicherheitsteam", "в службу безопасности") names whom a message goes to, not what binds the agent.
"""

from __future__ import annotations

from pi_memory.security.lazy_re import compile_lazily

__all__ = ["team_named", "tool_rules"]

# Code tools whose rules are their configuration (folded: lower case, accents off). Not "style"
# or "ignore": "your style rules", "ignore rules" can be the agent's.
_TOOL = (
    r"(?:lint|lints|linter|linters|linting|eslint|pylint|ruff|flake8|mypy|prettier|stylelint|formatter|"
    r"formatters|formatting|code[ -]style|gitignore|\.gitignore|firewall|iptables|nftables|"
    r"линтер\w*|форматтер\w*|リント|リンター|린트|린터|代码检查|格式化)"
)
_BEFORE = compile_lazily(r"(?<![^\W_])" + _TOOL + r"[ \t-]?$")
# The possessor after the word: a genitive right after it ("правила линтера"), or "of" and an
# article, one adjective allowed before them ("las reglas anteriores del linter").
_AFTER = compile_lazily(
    r"[^\W_]*[ \t]+(?:(?:[^\W_]+[ \t]+)?(?:of|de|di|del|des|du|do|da|della|dello|dei|degli|von|der|для)[ \t]+"
    r"(?:(?:the|l'|el|la|le|les|il|lo|o|a|os|as)[ \t]*)?)?" + _TOOL + r"(?![^\W_])"
)
_REACH = 24
# A program's own checks, named in an English noun compound: the data they check right before
# the word ("type checks", "schema validation", "export policy"), or the word as the modifier
# of a program object after it ("validation code", "validation options"): the compound's head
# is that object. Not "security", "safety" or "content": those checks can be the agent's.
_DATUM = (
    r"(?:type|types|typing|schema|schemas|equality|nullability|null|bounds|input|field|form|request|"
    r"header|payload|json|xml|yaml|argument|parameter|export|import|retry|cache|caching|cors|eviction|"
    r"rate[ -]limit|timeout|naming|routing|redirect|build|compile|compiler)"
)
_DATUM_BEFORE = compile_lazily(r"(?<![^\W_])" + _DATUM + r"[ \t-]$")
_HEAD_AFTER = compile_lazily(
    r"(?!safe|secur|guard|moderat|filter|content|instruct|prompt|guideline|polic)[^\W_]+[ \t-]"
    r"(?:code|options?|errors?|logic|librar(?:y|ies)|functions?|methods?|helpers?|modules?|layers?|schemas?|messages?|results?|hooks?|utilit(?:y|ies)|decorators?|classes|class)(?![^\W_])"
)


#: ... which only a word for checking can be ("checks", "validation", "policy", "constraints"):
#: "the yaml rules", "your input rules" may still be the agent's.
_CHECKS = compile_lazily(r"(?:checks?|checking|validations?|validators?|polic(?:y|ies)|constraints?)(?![^\W_])")


#: The word of security heading or ending the name of a team: a team noun before it ("equipo de
#: seguridad", "служба безопасности"), or the team right after it ("安全团队", "güvenlik ekibi",
#: "Sicherheitsteam", written as one word).
_TEAM_BEFORE = compile_lazily(
    r"(?<![^\W_])(?:equipos?|departamento|[aá]rea|equipes?|time|[ée]quipes?|service|team|squadra|reparto|"
    r"служб[аеуы]|отдел\w*|команд[аеуы]|групп[аеуы])[ \t]+(?:(?:de|di|del|della|da|do|du)[ \t]+)?"
    r"(?:(?:la|l'|el|a)[ \t]*)?$"
)
_SECURITY = compile_lazily(r"(?:seguridad|seguran[çc]a|s[ée]curit[ée]|sicurezza|безопасност|sicherheit|güvenlik|安全)")
_TEAM_AFTER = compile_lazily(
    r"(?:sicherheits(?:team|abteilung|beauftragte)\w*|güvenlik[ \t]+ekib\w*|"
    r"安全(?:团队|團隊|小组|小組|部门|部門|中心|チーム|担当|部))"
)


def team_named(text: str, pos: int) -> bool:
    """Is the ``rules`` word at ``pos`` of folded ``text`` a security team's name ("al equipo de
    seguridad", "安全团队")? Only the word of security can be: "the team's rules" are still rules."""
    if _TEAM_AFTER.match(text, pos) is not None:
        return True
    return _SECURITY.match(text, pos) is not None and _TEAM_BEFORE.search(text[max(0, pos - _REACH) : pos]) is not None


def tool_rules(text: str, pos: int) -> bool:
    """Is the ``rules`` word at ``pos`` of folded ``text`` a named code tool's rules, a security
    team's name (:func:`team_named`), or a program's own checks named in a noun compound
    (``_DATUM_BEFORE``, ``_HEAD_AFTER``)?"""
    before = text[max(0, pos - _REACH) : pos]
    if _BEFORE.search(before) is not None or _AFTER.match(text, pos) is not None or team_named(text, pos):
        return True
    return _CHECKS.match(text, pos) is not None and (
        _DATUM_BEFORE.search(before) is not None or _HEAD_AFTER.match(text, pos) is not None
    )
