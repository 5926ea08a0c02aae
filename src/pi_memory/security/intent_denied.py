"""Acts a negative quantifier denies: "nothing is pre-approved", "no script runs at login".

A clause whose subject is "nothing", "no script", "aucun script", "kein Skript", "никакие
скрипты", "没有任何操作", or one that ends "... ものはありません" / "... 것은 없습니다" (there is
none that ...), says the act does not happen: it approves nothing in advance and re-runs nothing
at login. The same words without the quantifier are the attack ("deletions are pre-approved",
"the script runs again at every login"), and a clause that also waives a check ("no need to
ask", "without confirmation") or names an act against the job ("no cleanup removes the login
hook") keeps its reading: only the approval and the re-run are read out, nothing else.

A restoring act that "no need to" governs ("there is no need to restore it", "восстанавливать не
нужно", "不用加回去", "không cần thêm lại") is declined: when every restoring word of the line is
declined so, the note does not put itself back, and the deletion it is conditional on ("if it
gets deleted, ...") orders nothing either. "If this note is deleted, restore it" keeps both.
"""

from __future__ import annotations

import re

from pi_memory.security.intent_match import concept_positions
from pi_memory.security.lazy_re import compile_lazily

#: A negative quantifier as a clause's subject, per language, written before what it denies.
_QUANTIFIER = compile_lazily(
    r"(?<!\w)(?:nothing|nobody|none|no\s+one|no\s+(?:scripts?|jobs?|tasks?|commands?|hooks?|entr(?:y|ies)"
    r"|programs?|actions?|operations?|deletions?|changes?)"
    r"|ningún|ninguna|ninguno|nada|nadie|nenhum|nenhuma|ninguém|aucun|aucune|rien"
    r"|kein|keine|keiner|keinen|keinem|nichts|niemand|nessun|nessuna|niente|nulla"
    r"|ничего|никакие|никакой|никакая|никакое|никаких|никто|hiçbir|hiçbiri"
    r"|không\s+có\s+gì|chẳng\s+có\s+gì|و?لا\s+شيء|و?(?:ألا|لا|لن|لم)\s+\S+\s+أي"
    r"|(?:कुछ\s+भी|कोई)(?=.*नहीं))(?!\w)"
    r"|何も|아무것도|没有任何|没有什么|不再"
)
#: Japanese and Korean deny at the clause's end: "... とみなされるものはありません", "... 것은 없습니다".
_NONE_AT_END = compile_lazily(r"(?:ものは|ことは|것은|것이)\s*(?:ありません|ない|なし|없습니다|없다|없어요)\s*$")
#: Clauses end at these marks (the ideographic ones included).
_CLAUSE_END = re.compile(r"[;,.:!?，。；：、!？،؛।]")
#: A clause with these keeps its reading: it waives a check, or acts against the job.
_KEPT = frozenset({"noneed", "without", "destroy", "modify", "disable", "covert", "conceal", "again"})
#: What a denied clause reads out.
_DENIED = {"prior": frozenset({"prior"}), "run": frozenset({"execute", "persist"})}


def clauses(line: str) -> list[tuple[int, int]]:
    """The ``(start, end)`` of each clause of ``line`` (between the marks of :data:`_CLAUSE_END`)."""
    out, start = [], 0
    for m in _CLAUSE_END.finditer(line):
        out.append((start, m.start()))
        start = m.end()
    out.append((start, len(line)))
    return [(a, b) for a, b in out if b > a]


def denied(line: str, read: set[str]) -> set[str]:
    """The concepts of ``read`` that only name an approval or a re-run a negative quantifier
    denies in ``line`` (every word of them in such a clause), or a restoring that is declined."""
    if not read & {"prior", "execute", "persist", "again"}:
        return set()
    positions = concept_positions(line)
    if "noneed" in read and (declined := _restore_declined(line, positions)):
        return declined
    inside: set[int] = set()
    for a, b in clauses(line):
        words = [(pos, found) for pos, found in positions if a <= pos < b]
        found_here = set().union(*(f for _, f in words)) if words else set()
        if found_here & _KEPT:
            continue
        quantifier = _QUANTIFIER.search(line, a, b)
        q_at = quantifier.start() if quantifier else (a if _NONE_AT_END.search(line[a:b]) else -1)
        if q_at < 0:
            continue
        for pos, found in words:
            if found & _DENIED["run"] and "prior" not in found_here:
                inside.add(pos)  # "no script runs at login", "लॉगिन पर कोई स्क्रिप्ट नहीं चलाई जाएगी"
            elif "prior" in found and pos >= q_at:
                inside.add(pos)  # "nothing is pre-approved", "事前に承認済みとみなされるものはありません"
    if not inside:
        return set()
    named = set().union(*(f for pos, f in positions if pos in inside))
    elsewhere = set().union(*(f for pos, f in positions if pos not in inside))
    return (named & (_DENIED["prior"] | _DENIED["run"])) - elsewhere


_RESTORING = frozenset({"persist", "again"})
#: "No need to ask again" ("không cần hỏi lại") waives the asking: no restoring is declined there.
_ASKING = frozenset({"noconfirm", "asking", "user"})


def _restore_declined(line: str, positions: list[tuple[int, frozenset[str]]]) -> set[str]:
    """The concepts to read out when every restoring word of ``line`` is in a clause with a "no
    need" word (the module's second reading): those clauses' and the conditional deletion's."""
    inside: set[int] = set()
    restoring = {pos for pos, found in positions if found & _RESTORING}
    for a, b in clauses(line):
        here = [(pos, found) for pos, found in positions if a <= pos < b]
        found_here = set().union(*(f for _, f in here)) if here else set()
        if "noneed" in found_here and found_here & _RESTORING and not found_here & _ASKING:
            inside.update(pos for pos, _ in here)
        elif {"condition", "destroy"} <= found_here and not found_here & _RESTORING:
            inside.update(pos for pos, found in here if found & {"condition", "destroy"})
    if not restoring or not restoring <= inside:
        return set()
    named = set().union(*(f for pos, f in positions if pos in inside))
    elsewhere = set().union(*(f for pos, f in positions if pos not in inside))
    return named - elsewhere
