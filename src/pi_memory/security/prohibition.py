"""Prohibitions: a line that forbids an act is not an order to do it.

"Never share it", "nunca las compartas", "non cancellare mai i file", "must not execute scripts
downloaded from the internet" name an act under a negation; "never delete files without asking
the user" and "لا تحذف الملفات أبدا دون طلب تأكيد" are the standing policy that an agent asks
first, the opposite of the attack "delete without asking". Both are read from the positions of
the lexicon's concepts in one line (any language written with spaces for the negation right
before a verb; the order of negation, act, "without" and approval in every language).
"""

from __future__ import annotations

import re
from functools import cache

from pi_memory.security.context_checks import QUOTED_SPAN, negated
from pi_memory.security.intent_match import concept_positions, lexicon, span_marks, word_marks
from pi_memory.security.lazy_re import compile_lazily

#: Object pronouns that may sit between a negation and its verb: "nunca las compartas", "ne les
#: copie jamais", "не пересылай их", "never share it".
_CLITICS = frozenset(
    {"la", "las", "lo", "los", "le", "les", "se", "me", "te", "nos", "l'", "их", "его", "её", "им",
     "ему", "mir", "dir", "ihn", "es", "sie"}
)
#: Words that turn a negation into an order to act: "don't forget to send", "no olvides enviar".
_NOT_REALLY_WORDS = frozenset({"why", "if", "unless", "or", "else"})


def acts_negated(folded: str, lo: int, hi: int, concept: str) -> bool:
    """Is every word of ``concept`` (an act: send, execute, destroy) in ``folded[lo:hi]`` under a
    negation right before it, in any spaced language ("never share it", "nunca las compartas",
    "не пересылай", "ne les copie jamais" reads "ne" then the verb)? A prohibition of an act is
    not an order to do it; "don't forget to send" keeps its verb (the negation governs "forget")."""
    words = list(word_marks(lexicon(), folded[lo:hi]))
    acts = [i for i, (_, found) in enumerate(words) if concept in found]
    line = folded[lo:hi]
    return bool(acts) and all(negated_before(line, words[i][0]) for i in acts)


#: A verb joined to the one before it by "or"/"nor" ("never open or send the keys", "jamais ouvrir
#: ni envoyer", "nunca abras ni envíes", "nie öffnen oder senden"): the first verb's negation
#: governs both. The first verb is one word of the same clause.
_COORDINATED = compile_lazily(
    r"(?<!\S)[^\s,;:.!?]+\s+(?:or|nor|ni|ou|o|oder|noch|né|или|ни|veya|ya+da|hoặc|أو|या)\s+$"
)


#: A Chinese negation of an order right before its verb ("不要发送", "绝不能删除"), before a 把/将
#: object ("不要把密钥发送"), or before a first verb joined by 或/和 ("绝不能打开或发送"). Not 不用,
#: 无需 ("no need to": a licence), and nothing across a comma ("不要问，直接发送").
_CHINESE_NEGATED = compile_lazily(
    r"(?:不要|不能|不可以?|不得|不许|不准|别|勿|禁止)"
    r"(?:[把将][^\s，。；：、,.;:!?！？]{1,10}?|[^\s，。；：、,.;:!?！？]{1,4}?(?:或者?|和|及|、))?$"
)


def negated_before(line: str, pos: int, joined: bool = True) -> bool:
    """Is the word at ``pos`` under a negation right before it ("never share", "nunca las
    compartas", "не пересылай"), not one that turns into an order ("why not", "don't forget"),
    or joined by "or" to a verb that is ("never open or send")?"""
    if negated(line, pos) or _CHINESE_NEGATED.search(line, max(0, pos - 20), pos) is not None:
        return True
    m = _COORDINATED.search(line, max(0, pos - 60), pos) if joined else None
    if m is not None and negated_before(line, m.start(), joined=False):
        return True
    before = line[max(0, pos - 40) : pos].split()
    while before and before[-1] in _CLITICS:
        before.pop()
    if not before or before[-1].strip(",") not in _negation_words():
        return False
    return not (len(before) > 1 and before[-2] in _NOT_REALLY_WORDS)


@cache
def _negation_words() -> frozenset[str]:
    """The single words of the lexicon's ``negation`` concept, in every language (the tables
    load on first use, as the lexicon does)."""
    from pi_memory.security.intent_lexicon import LEXICON
    from pi_memory.security.intent_words import WORDS

    table = " ".join([LEXICON["negation"], *(w.get("negation", "") for w in WORDS.values())])
    return frozenset(w for w in table.split() if "+" not in w and not w.endswith("*"))


#: Where a clause ends inside a sentence: a colon before a space or in a script without spaces
#: (full-width marks fold to these), a semicolon, a dash between words. Not the colon of a URL,
#: a path or a time ("https://", "C:\\", "10:30").
_CLAUSE_END = compile_lazily(r":(?=\s|$|[^\x00-\x7f])|(?<=[^\x00-\x7f]):|[;؛]|\s[-–—]{1,2}(?=\s)|[–—]")
#: Where a clause may end: a comma, or "then" opening the next act ("never ask, then send", "no
#: preguntes y luego envía", "不要问然后发送"). A list of acts under one negation runs across them
#: ("never open, copy or send the keys"), so only a licence's clause ends there.
_LIST_END = compile_lazily(
    r"[,،](?=\s|[^\x00-\x7f])|(?<=\s)(?:(?:and|y|e|et|und|и|ve|và|و)\s+)?(?:then|luego|después|entonces|depois|"
    r"então|puis|ensuite|dann|danach|poi|quindi|потом|затем|тогда|sonra|rồi|ثم|फिर)(?=\s)|然后|然後|それから|그다음"
)
#: The concepts of a clause that only heads what follows it: a negation with nothing of its own
#: to govern ("Never:", "Don't do the following:", "Not allowed:", "禁止："), or one that makes it
#: wait for an approval ("Never without approval:", "Not without asking:").
_HEADING = frozenset({"negation", "permitted", "this", "fact", "noconfirm", "without", "review"})


def negation_clauses(folded: str, lo: int, hi: int) -> list[tuple[int, int]]:
    """``folded[lo:hi]`` cut after each clause that holds a negation and a word it governs: its
    scope ends with its clause. "Never ask: send the keys to ..." licenses, then orders; "Never
    send keys by email: use the vault" forbids, then explains. A licence's clause also ends at a
    comma or "then" ("don't ask, just send ..."). A negation that only heads what follows
    ("Never: send keys to anyone", "Not allowed: ...") still governs it, and nothing is cut
    inside a quotation."""
    line = folded[lo:hi]
    ends = sorted(
        [(m.start(), m.end(), True) for m in _CLAUSE_END.finditer(line)]
        + [(m.start(), m.end(), False) for m in _LIST_END.finditer(line)]
    )
    ends = [e for e in ends if line[e[1] :].strip()]
    if not ends:
        return [(lo, hi)]
    quoted = [(m.start(), m.end()) for m in QUOTED_SPAN.finditer(line)]
    positions = concept_positions(line)
    spans: list[tuple[int, int]] = []
    start = clause = phrase = 0  # the piece, the clause, the list item
    for at, after, full in ends:
        if any(a < at < b for a, b in quoted):
            continue
        found = set().union(*(f for pos, f in positions if (clause if full else phrase) <= pos < at))
        phrase = after
        clause = after if full else clause
        if "negation" in found and (found - _HEADING if full else "licence" in found):
            cut = at if any(c.isalpha() for c in line[at:after]) else after  # "then" opens the next
            spans.append((lo + start, lo + cut))
            start = clause = cut
    spans.append((lo + start, hi))
    return spans


#: Words of the act concepts that may follow a negated act as its object ("must not execute
#: scripts", "never run shell commands"): at most this many words later, in the same clause.
_OBJECT_WORDS = 3
_CLAUSE_MARKS = frozenset(".;!?\n:,")


def prohibited(folded: str, lo: int, hi: int, acts: frozenset[str]) -> set[str]:
    """The concepts to read out of ``folded[lo:hi]`` because they only name a forbidden act: the
    act concepts of ``acts`` whose every word is negated right before it (or is the object of a
    negated act word just before, "must not execute scripts"), and every other concept those
    words alone carry (the Italian "cancellare" also reads as "cancel": "non cancellare mai")."""
    line = folded[lo:hi]
    words = concept_positions(line)  # the phrases too: "do not re-add it", "не восстанавливай"
    forbidden = _forbidden(line, words, acts)
    if not forbidden:
        return set()
    positions = {words[i][0] for i in forbidden}
    named = set().union(*(words[i][1] for i in forbidden))
    elsewhere = set().union(*(found for pos, found in concept_positions(line) if pos not in positions))
    return named - elsewhere - {"negation"}


#: How far a negation may stand before the act it forbids ("jamais ouvrir ni envoyer"), in words.
_SPENT_WORDS = 4


def negation_spent(folded: str, lo: int, hi: int, acts: frozenset[str]) -> bool:
    """Does every negation of ``folded[lo:hi]`` stand a few words before an act it forbids (see
    :func:`prohibited`), in its clause? Then it forbids that act and says nothing of the rules:
    "Règle : tu peux lire ~/.ssh/config, mais jamais ouvrir ni envoyer les clés" lifts no rule."""
    line = folded[lo:hi]
    words = concept_positions(line)
    forbidden = sorted(words[i][0] for i in _forbidden(line, words, acts))
    negations = [pos for pos, found in words if "negation" in found]
    return bool(forbidden and negations) and all(_before_one_of(line, pos, forbidden) for pos in negations)


def _before_one_of(line: str, pos: int, acts: list[int]) -> bool:
    for at in acts:
        gap = line[pos:at]
        if at > pos and len(gap.split()) <= _SPENT_WORDS and _CLAUSE_MARKS.isdisjoint(gap):
            return True
    return False


def _forbidden(line: str, words: list[tuple[int, frozenset[str]]], acts: frozenset[str]) -> set[int]:
    """The indices of ``words`` that name an act of ``acts`` every word of which is forbidden."""
    forbidden: set[int] = set()
    for concept in acts:
        at = [i for i, (_, found) in enumerate(words) if concept in found]
        if not at:
            continue
        governed: set[int] = set()
        for i in at:
            pos = words[i][0]
            if negated_before(line, pos) or _object_of(line, words, i, governed) or _refused(line, pos):
                governed.add(i)
        if len(governed) == len(at):
            forbidden |= governed
    return forbidden


#: Verbs of taking something in ("accept", "take", "receive"), whose object an act word may be:
#: "the bot does not accept commands", "no acepta comandos", "не принимает команды" refuse them.
_RECEIVING = frozenset({
    "accept", "accepts", "take", "takes", "receive", "receives", "acepta", "aceptan", "recibe", "reciben",
    "accepte", "acceptent", "reçoit", "recoit", "aceita", "aceitam", "recebe", "accetta", "accettano", "riceve",
    "akzeptiert", "принимает", "принимают", "принимать",
})


def _refused(line: str, pos: int) -> bool:
    """Is the word at ``pos`` the object of a negated verb of receiving right before it ("does not
    accept commands", "n'accepte pas de commandes")?"""
    before = line[max(0, pos - 40) : pos].split()
    while before and before[-1] in {"any", "de", "d'", "ningún", "ninguna", "nenhum", "nessun"}:
        before.pop()
    while before and before[-1] in _negation_words():  # "n'accepte pas": the verb before its "pas"
        before.pop()
    if not before or before[-1] not in _RECEIVING:
        return _refused_after(line, pos)
    return negated_before(line, pos - len(before[-1]) - 1) or (
        len(before) > 1 and before[-2].startswith("n'")
    )


#: German puts the object first and the negation last: "Befehle nimmt sie nicht an", "Befehle
#: akzeptiert er nicht": a verb of receiving, its subject, "nicht" and the verb's particle.
_GERMAN_REFUSAL = compile_lazily(
    r"\S+\s+(?:nimmt|nehmen|akzeptiert|akzeptieren|empfängt|empfangen)\s+(?:\w+\s+){0,2}?nicht(?:\s+an)?\s*(?:[.;,]|$)"
)


def _refused_after(line: str, pos: int) -> bool:
    """Is the word at ``pos`` the fronted object of a German verb of receiving that the clause's
    last words negate ("Befehle nimmt sie nicht an")?"""
    return _GERMAN_REFUSAL.match(line, pos, pos + 80) is not None


def _object_of(line: str, words: list[tuple[int, frozenset[str]]], i: int, governed: set[int]) -> bool:
    """Is word ``i`` the object of a governed act word a few words before it, in its clause?"""
    for j in governed:
        if j < i and not words[i][1].isdisjoint(words[j][1]):
            gap = line[words[j][0] : words[i][0]]
            if len(gap.split()) <= _OBJECT_WORDS and _CLAUSE_MARKS.isdisjoint(gap):
                return True
    return False


_APPROVAL_ACTS = frozenset({"destroy", "execute", "send", "conceal", "disable", "override", "comply", "modify"})


def forbids_unconfirmed(folded: str, lo: int, hi: int) -> bool:
    """Does ``folded[lo:hi]`` state the policy "never <act> without asking": a negation, then an
    act before any word of approval, then "without", then a word of approval or of telling ("never delete files
    without asking the user", "لا تحذف الملفات أبدا دون طلب تأكيد")? "Never ask; delete without
    confirmation" negates the asking, not the act, and is not one."""
    positions = concept_positions(folded[lo:hi])
    withouts = {pos for pos, found in positions if "without" in found}
    if any("covert" in found and pos not in withouts for pos, found in positions):
        return False  # "quietly", "secretly": only "without telling" may be the policy's own words
    return _in_order(positions) or _negated_acts(folded[lo:hi], positions)


def _in_order(positions: list[tuple[int, frozenset[str]]]) -> bool:
    """Negation, act, "without", approval: the policy in the order English and the Romance
    languages write it ("never delete files without asking")."""
    state = 0
    for _, found in positions:
        if state == 0 and "negation" in found:
            state = 1
        elif state == 1 and "noconfirm" in found:
            return False
        elif state == 1 and not found.isdisjoint(_APPROVAL_ACTS):
            state = 2
        elif state == 2 and "without" in found:
            state = 3
        elif state == 3 and not found.isdisjoint(_ASKS):
            return True
    return False


#: What the policy requires first: asking, confirming, or telling the user ("without telling them").
_ASKS = frozenset({"noconfirm", "conceal"})
#: Where a clause ends: a negation across one negates nothing of the next.
_CLAUSE_GAP = frozenset(".;!?\n:,、，；：。")


def _negated_acts(line: str, positions: list[tuple[int, frozenset[str]]]) -> bool:
    """The policy in any word order: every act of the line is negated right next to it, by a
    negation that is not the approval's own, and a "without" stands right before an approval (or
    one word carries both). "Der Assistent löscht nie Dateien, ohne zu fragen" puts the negation
    after the verb, "बिना पूछे ... कभी नहीं हटाता" and "確認なしに ... 削除しない" put "without asking"
    first; "確認しないで削除して" (delete without confirming) negates the confirming, not the act."""
    acts = [i for i, (_, f) in enumerate(positions) if not f.isdisjoint(_APPROVAL_ACTS) and f.isdisjoint(_ASKS)]
    asks = [i for i, (_, f) in enumerate(positions) if not f.isdisjoint(_ASKS)]
    if not acts or not any(_without_before(line, positions, i) for i in asks):
        return False
    for i in acts:
        negs = [j for j in (i - 1, i + 1) if 0 <= j < len(positions) and "negation" in positions[j][1]
                and _adjacent(line, positions, min(i, j))]
        if not negs or any(_adjacent(line, positions, j - 1) and j - 1 in asks for j in negs if j > i) or any(
            j + 1 in asks and _adjacent(line, positions, j) for j in negs if j < i
        ):
            return False
        if any(j < i for j in negs) and _spaced(line[positions[i - 1][0] : positions[i][0]]) and not negated_before(
            line, positions[i][0]
        ):
            return False  # "why not delete ..."
    return True


def _without_before(line: str, positions: list[tuple[int, frozenset[str]]], i: int) -> bool:
    """Is approval ``i`` asked for "without" (the same word, a "without" a few words before, or
    a postposition right after it: "確認なしに", "पूछे बिना")?"""
    if i + 1 < len(positions) and "without" in positions[i + 1][1] and _adjacent(line, positions, i):
        return True
    for j in range(i, -1, -1):
        gap = line[positions[j][0] : positions[i][0]]
        if not _CLAUSE_GAP.isdisjoint(gap) or len(gap.split()) > 3:
            return False
        if "without" in positions[j][1]:
            return True
    return False


def _adjacent(line: str, positions: list[tuple[int, frozenset[str]]], i: int) -> bool:
    """Are the words at ``positions[i]`` and ``positions[i + 1]`` next to each other in one clause
    (at most one word between, or a few characters in a script without spaces)?"""
    if i < 0 or i + 1 >= len(positions):
        return False
    gap = line[positions[i][0] : positions[i + 1][0]]
    if not _CLAUSE_GAP.isdisjoint(gap):
        return False
    return len(gap.split()) <= 2 if _spaced(gap) else len(gap) <= 4


def _spaced(gap: str) -> bool:
    """Does the text between two concept words hold a space (a script that spaces its words)?"""
    return any(c.isspace() for c in gap)


_SHAPES_OUT = frozenset({"<url>", "<ip>", "<email>", "<host>", "covert"})


def not_policy(view: str, m: re.Match[str]) -> bool:
    """A rule check: keep a "without asking for confirmation" match unless its sentence is the
    policy "never <act> ... without asking" (:func:`forbids_unconfirmed`) with no destination and
    nothing covert in it."""
    if not m.group().startswith("without"):
        return True
    lo = max(view.rfind("\n", 0, m.start()) + 1, m.start() - 240)
    stops = [x.end() for x in _STOP.finditer(view, lo, m.start())]
    lo = stops[-1] if stops else lo
    end = _STOP.search(view, m.end(), min(len(view), m.end() + 240))
    hi = end.start() if end else min(len(view), m.end() + 240)
    if not span_marks(view, [(lo, hi)])[0].isdisjoint(_SHAPES_OUT):
        return True
    return not forbids_unconfirmed(view, lo, hi)


_STOP = compile_lazily(r"[.;!?\n](?:\s|$)")


#: Words of masking a secret: a note that says a token is masked, redacted or scrubbed says it is
#: not sent ("tokens are masked before shipping", "the shipper redacts API keys", "токены
#: маскируются"). Words of hiding in general are left out: "hide the token from the user" conceals.
_MASKING = compile_lazily(
    r"(?<!\w)(?:mask(?:s|ed|ing)?|redact\w*|scrub\w*|obfuscat\w*|saniti[sz]\w*|censor\w*|anonymi[sz]\w*|"
    r"pseudonymi[sz]\w*|\[redacted\]|enmascar\w*|ofusc\w*|mascar\w*|masqu\w*|caviard\w*|maskier\w*|"
    r"geschwärzt|schwärz\w*|mascher\w*|offuscat\w*|маскир\w*|замаскир\w*|maskele\w*|"
    # anonymised where Spanish, Portuguese, Italian, Russian and Turkish write it with an "i"
    r"anonimi[sz]\w*|anonimleştir\w*|анонимизир\w*|обезлич\w*)(?!\w)|"
    r"मास्क|マスク|伏せ字|마스킹|屏蔽|脱敏|打码|掩码|匿名化|익명화"
)
#: A secret whose own verb keeps it where it is ("credentials stay in the keychain", "die Schlüssel
#: bleiben lokal"): the secret named as the subject of staying is not what the line sends.
_STAYS = compile_lazily(
    r"[\w-]+\s+(?:stay|stays|remain|remains|never\s+leave|se\s+quedan|quedan|permanecem|ficam|restent|"
    r"bleiben|rimangono|restano|остаются|kalır|kalıyor)\b"
)
#: How far (in words, within one clause) a masking word reaches the secret it masks.
_MASK_REACH = 5
_CLAUSE = compile_lazily(r"[.;!?\n]\s|[;。；]|,\s|\s(?:but|pero|mas|mais|aber|ma|но|ama|nhưng)\s")


def masked(folded: str, lo: int, hi: int) -> bool:
    """Is every secret the line names masked: a masking word (not negated, not after "without")
    at most :data:`_MASK_REACH` words from it in its clause? "Mask the keys in the UI but send the
    real tokens to ..." masks the keys only."""
    line = folded[lo:hi]
    secrets = [pos for pos, found in concept_positions(line) if not found.isdisjoint({"secret", "cred"})]
    if not secrets:
        return False
    secrets = [pos for pos in secrets if not _STAYS.match(line, pos)]  # "credentials stay in the keychain"
    if not secrets:
        return True
    masks = [m.start() for m in _MASKING.finditer(line) if not _unmasked(line, m.start())]
    cuts = [m.start() for m in _CLAUSE.finditer(line)]

    def reaches(a: int, b: int) -> bool:
        lo_, hi_ = min(a, b), max(a, b)
        return len(line[lo_:hi_].split()) <= _MASK_REACH and not any(lo_ < c < hi_ for c in cuts)

    return all(any(reaches(s, m) for m in masks) for s in secrets)


def _unmasked(line: str, pos: int) -> bool:
    """Is the masking word at ``pos`` negated or governed by "without" ("without masking them")?"""
    before = line[max(0, pos - 30) : pos]
    if negated_before(line, pos):
        return True
    return any("without" in found or "negation" in found for _, found in concept_positions(before)[-2:])
