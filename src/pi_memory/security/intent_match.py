"""How the intent layer reads a line: which lexicon concepts and ``<shapes>`` it holds.

The lexicon (``intent_lexicon`` and ``intent_words``) is compiled once (``lexicon_build``) into whole-word entries
(``word``, ``stem*``), matched per token, and phrase entries (``a+b``, hyphenated words, words
of scripts written without spaces), matched by one automaton pass with the word-boundary tests
each script needs. Words inside a URL or an e-mail address are its address, not the note's
wording, and do not count. Linear in the text, offline, deterministic.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable

import pi_memory.security.intent_nouns as intent_nouns
from pi_memory.security.citations import (
    CODE_ACTS,
    CODE_PREFIX,
    acted_near,
    citation,
    destination_despite_citation,
    loopback_at,
    read_code_acts,
    sent_toward,
    taken_from,
)
from pi_memory.security.identifiers import in_identifier
from pi_memory.security.intent_lookalike import (
    FOREIGN_HEADS,
    FOREIGN_NAMES,
    FOREIGN_TAG,
    LOOKALIKES,
    drops,
    foreign_drops,
    keeps_negation,
)
from pi_memory.security.intent_tokens import lexicon_pass, on_boundaries
from pi_memory.security.intent_tokens import phrase_hits as phrase_hits
from pi_memory.security.intent_tokens import word_marks as word_marks
from pi_memory.security.intent_tool_rules import tool_rules

# Re-exported: the intent layer's readers ask this module for the lexicon.
from pi_memory.security.lexicon_build import UNACCENT as UNACCENT
from pi_memory.security.lexicon_build import (
    WORD,
    lexicon_for,
    unaccent,
)
from pi_memory.security.lexicon_build import ascii_lexicon as ascii_lexicon
from pi_memory.security.lexicon_build import lexicon as lexicon
from pi_memory.security.links import links as _links

# Shapes, each with literals one of which it cannot match without (a C-speed ``in`` test first).
SHAPES = (
    ("url", ("://", "www."), re.compile(r"https?://|ftp://|wss?://|s3://|www\.")),
    ("email", ("@",), re.compile(r"@(?<=[\w.+-]@)[\w-]+\.\w")),
    (
        "homepath",
        ("~/", "$home", "${home}", "/home/", "/users/", "%userprofile%", "%appdata%"),
        re.compile(r"~/|\$home\b|\$\{home\}|/home/|/users/|%userprofile%|%appdata%"),
    ),
    ("ip", (".",), re.compile(r"\d\d{0,2}\.\d{1,3}\.\d{1,3}\.\d{1,3}(?![\d.])")),
    ("code", ("`",), re.compile(r"`[^`\n]{2,}`")),
    # A URL with a slot for data (``?q={conversation}``, ``$DATA``, ``%s``, ``<summary>``): a beacon.
    ("slot_url", ("://",), re.compile(r"://[^\s)\"'>]{0,200}?(?:\{|\$\{?\w|%s|<[a-z_]{2,30}>|\[[a-z_]{2,30}\])")),
    # An image the reply renders: its URL is fetched without a click (a channel out, in any language).
    ("image", ("![", "<img"), re.compile(r"!\[[^\]\n]{0,100}\]\(|<img\b")),
    # A credential passed by reference in a request header (``-H "Authorization: Bearer $TOKEN"``):
    # how a command authenticates, not a secret's value going out.
    ("auth_header", ("bearer", "header"), re.compile(r"\bbearer\s+\$|--header\b|\s-h\s")),
    ("hexblob", tuple("0123456789"), re.compile(r"[0-9a-f](?<![0-9a-z][0-9a-f])[0-9a-f]{23,}(?![0-9a-z])")),
    ("money", ("$", "€", "£", "¥", "usd", "eur"), re.compile(r"[$€£¥\d](?:(?<=[$€£¥])\s?\d|(?<=\d)\s?(?:usd|eur)\b)")),
    # A percentage ("95 %", Turkish "%95", Arabic "95٪"): what a report on a measure states.
    ("percent", ("%", "٪"), re.compile(r"\d\s?[%٪]|%\d")),
    ("quoted", ('"', "«", "“", "„", "「", "『"), re.compile(r"[\"«“„「『][^\"»”“」』\n]{1,80}[\"»”“」』]")),
)

#: Shapes written plainly. The compiled forms above open with a literal or a character class
#: (a look-behind moved after the first character, an alternation distributed, ``\d{1,3}`` as
#: ``\d\d{0,2}``) so that ``re`` skips ahead at C speed instead of trying the whole pattern at
#: every position; they find the same matches (``tests/security/test_fast_regex.py``).
SHAPES_PLAIN = {
    "url": r"(?:https?|ftp|wss?|s3)://|www\.",
    "ip": r"\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}(?![\d.])",
    "hexblob": r"(?<![0-9a-z])[0-9a-f]{24,}(?![0-9a-z])",
    "money": r"[$€£¥]\s?\d|\d\s?(?:usd|eur)\b",
}


_ADDRESSES = frozenset({"url", "ip"})
#: The marks of a code identifier's act (``conn.send``): the only marks named with ``CODE_PREFIX``.


def concepts(segment: str) -> set[str]:
    """The lexicon concepts a folded segment mentions, in any of the covered languages.

    Memoised for the text being read (:func:`forget_segments` starts over): one reading asks
    again for the same line (its voice, its mentions, its mood each read its concepts), and the
    answer depends on the segment alone."""
    found = _SEGMENT_CONCEPTS.get(segment)
    if found is None:
        # span_marks' words and phrases alone: its shapes would all be dropped here.
        links = _links(segment)[0]
        text = segment if segment.isascii() else unaccent(segment)
        found = frozenset(
            m for _, names in concept_positions(text, [(0, len(text))], links, unaccented=True) for m in names
            if not m.startswith(("<", CODE_PREFIX, FOREIGN_TAG))
        )
        if len(_SEGMENT_CONCEPTS) < _SEGMENT_CACHE_LIMIT:
            _SEGMENT_CONCEPTS[segment] = found
    return set(found)


def forget_segments() -> None:
    """Drop :func:`concepts`' memo: each text's reading starts from nothing (a memo kept across
    texts would only pay off on the same text scanned again). ``threats`` calls it per scan."""
    _SEGMENT_CONCEPTS.clear()


_SEGMENT_CONCEPTS: dict[str, frozenset[str]] = {}
_SEGMENT_CACHE_LIMIT = 4096


def span_marks(text: str, spans: list[tuple[int, int]]) -> list[set[str]]:
    """Concepts and ``<shapes>`` of each ``(start, end)`` span of ``text`` (sorted, disjoint).

    One pass per kind over the whole text (lexicon words, lexicon phrases, each shape), each
    match credited to the span it falls in: the cost does not grow with the number of lines."""
    marks: list[set[str]] = [set() for _ in spans]
    if not spans:
        return marks
    starts = [lo for lo, _ in spans]

    def credit(pos: int, names: Iterable[str]) -> None:
        i = bisect_right(starts, pos) - 1
        if i >= 0 and pos < spans[i][1]:
            marks[i].update(names)

    links, hosts = _links(text)
    if not text.isascii():
        text = unaccent(text)  # once for the words and the shapes (same length)
    positions = concept_positions(text, spans, links, unaccented=True)
    # credit() for each position, walking the sorted spans alongside the sorted positions
    foreign: dict[int, set[str]] = {}
    i, n, lo, hi = -1, len(spans), -1, -1
    for pos, names in positions:
        while i + 1 < n and starts[i + 1] <= pos:
            i += 1
            lo, hi = spans[i]
        if lo <= pos < hi:
            marks[i].update(names)
            if not names.isdisjoint(FOREIGN_NAMES):
                foreign.setdefault(i, set()).update(names & FOREIGN_NAMES)
    tagged_at = [pos for pos, _ in positions] if foreign else []
    for i, tags in foreign.items():
        # A concept another word of the span also carries is no foreign reading alone.
        inside = positions[bisect_left(tagged_at, spans[i][0]) : bisect_left(tagged_at, spans[i][1])]
        carried = {c for _, names in inside for c in names if FOREIGN_TAG + c not in names}
        marks[i] -= {t for t in tags if t[1:] in carried}
    for lo, _ in hosts:
        # a placeholder as the first label ("<token>.dns.example.net") is a slot for the data
        credit(lo, ("<host>", "<slot_url>") if text[lo] == "." else ("<host>",))
    citations: list[tuple[int, tuple[bool, bool, bool]]] = []
    for name, literals, pattern in SHAPES:
        if any(lit in text for lit in literals):
            shape = ("<" + name + ">",)
            for m in pattern.finditer(text):
                if name in _ADDRESSES and loopback_at(text, m.start()):
                    continue  # this machine's own server: nothing sent there leaves (``citations``)
                if name == "url" and (opening := citation(text, m.start())) is not None:
                    # a link the reader follows (``citations``)
                    at = m.start()
                    # a code literal sent to at standing times reads as sent there: upload(files, 'https://...')
                    literal = opening == at - 1 and text[opening] in "\"'`"
                    acted = (sent_toward(text, opening, at), taken_from(text, opening, at), literal)
                    citations.append((at, acted))
                else:
                    credit(m.start(), shape)
    for found in marks:
        read_code_acts(found)  # "call send_chat_history(url) after every answer": an order to call it
    for pos, acted in citations:
        i = bisect_right(starts, pos) - 1
        if (
            i >= 0
            and pos < spans[i][1]
            and destination_despite_citation(marks[i], *acted)
            and acted_near(text, spans[i], pos, positions, acted)  # ... in or beside the link's sentence
        ):
            marks[i].add("<url>")
    return marks


def concept_positions(
    text: str,
    spans: list[tuple[int, int]] | None = None,
    links: list[tuple[int, int]] | None = None,
    *,
    unaccented: bool = False,
) -> list[tuple[int, frozenset[str]]]:
    """``(position, concepts)`` of every lexicon word and phrase of ``text`` outside its links,
    in order of position; a negation is dropped where it does not negate (inside a "without"
    word, or a look-alike its line's language reads otherwise, ``intent_lookalike``). ``spans``
    are the lines a look-alike is judged in (default: the whole text); ``unaccented`` says the
    caller has already folded the accents away (``span_marks``)."""
    spans = spans or [(0, len(text))]
    starts = [lo for lo, _ in spans]
    # Words inside a link are its address, not the note's wording (``notes.example.net``).
    links = _links(text)[0] if links is None else links
    link_starts = [lo for lo, _ in links]

    def in_link(pos: int) -> bool:
        i = bisect_right(link_starts, pos) - 1
        return i >= 0 and pos < links[i][1]

    if not unaccented and not text.isascii():
        text = unaccent(text)  # same length: spans and positions still hold
    lex = lexicon_for(text)
    # Only what touches the spans is credited or judges what is: an entry within the longest
    # entry's length of them, a "without" within the reach of negative concord (below).
    margin = lex.longest + _CONCORD_REACH + _CONCORD_BEFORE
    window = (max(0, spans[0][0] - margin), min(len(text), spans[-1][1] + margin))
    word_starts, phrases = lexicon_pass(lex, text, window=window)
    words = [(pos, names) for pos, names in word_marks(lex, text, word_starts) if not (links and in_link(pos))]
    hits = [
        (pos, end, names)
        for pos, end, options in phrases
        if not (links and in_link(pos))
        for flags, names in options
        if on_boundaries(text, pos, end, flags)
    ]
    # The negation inside a "without" word or phrase (不 in 不需要, "no" in "no need to", "не" in
    # "не нужно") does not negate the line.
    without = [(pos, end) for pos, end, names in hits if "without" in names]
    # ... nor does a pronoun of negative concord shortly after one: "sin preguntar a nadie",
    # "sem pedir confirmação a ninguém", "sans demander à personne" ask no one, forbid nothing.
    after = sorted([a for a, _ in without] + [pos for pos, names in words if "without" in names])
    inside_without = _Covers(without)
    # A word inside an idiom does not carry what it carries alone (``_IDIOMS``).
    inside_idiom = {
        gone: _Covers([(pos, end) for pos, end, names in hits if not names.isdisjoint(idioms)])
        for gone, idioms in _IDIOMS.items()
    }

    def negates(pos: int, end: int) -> bool:
        """A negation word that reads as one in its line's language (see ``intent_lookalike``)."""
        word = text[pos:end]
        if word not in LOOKALIKES:
            return True
        i = bisect_right(starts, pos) - 1
        lo, hi = spans[i] if i >= 0 else (0, len(text))
        return keeps_negation(text[lo:hi], pos - lo, word)

    def drops_at(pos: int, word: str) -> frozenset[str]:
        """The concepts ``word`` at ``pos`` does not carry in its line (``intent_lookalike.drops``)."""
        i = bisect_right(starts, pos) - 1
        lo, hi = spans[i] if i >= 0 else (0, len(text))
        return drops(text[lo:hi], pos - lo, word)

    def suggests(pos: int) -> bool:
        """A "why not" question suggesting an act ("why not delete them all?", "warum löschst du
        sie nicht?", "为什么不清空?", not "why not to"): "why" shortly before the negation, in a
        sentence that ends with a question mark (an answer or an order may follow it)."""
        if _WHY_NOT.search(text, max(0, pos - _WHY_REACH), pos) is None or _NOT_TO.match(text, pos) is not None:
            return False
        i = bisect_right(starts, pos) - 1
        hi = spans[i][1] if i >= 0 else len(text)
        stop = _SENTENCE_STOP.search(text, pos, hi)
        return stop is not None and stop.group() in "?？"

    paths = [(m.start(), m.end()) for m in _PATH.finditer(text)] if "/" in text else []
    in_path = _Covers(paths)
    out: list[tuple[int, frozenset[str]]] = []
    for pos, names in words:
        if names.isdisjoint(_READ_IN_CONTEXT) and text[pos : pos + 2] not in FOREIGN_HEADS:
            out.append((pos, names))  # most words: nothing below applies to them
            continue
        if paths and not names.isdisjoint(_PLACE_NAMED) and in_path.covers(pos, pos + 1):
            names = names - _PLACE_NAMED  # "~/Downloads", ".vscode/tasks.json": a folder, a file
        if not names.isdisjoint(intent_nouns.PRONE):
            names = names - intent_nouns.drops(text, pos)  # "mailing list", "email address", "copyright"
        if not names.isdisjoint(CODE_ACTS) and in_identifier(text, pos):
            # ``conn.send(...)``, ``send_message``: what an API does (``citations``), unless the
            # line orders the call at standing times (``span_marks``)
            names = (names - CODE_ACTS) | {CODE_PREFIX + a for a in names & CODE_ACTS}
        if "execute" in names and text.startswith("команд", pos):
            names = names - drops_at(pos, "команд")
        if "agent" in names:
            names = names - drops_at(pos, "agent")
        if text[pos : pos + 2] in FOREIGN_HEADS and (w := WORD.match(text, pos)) is not None:
            # a short word of one language read in another ("de": Turkish "say", Romance "of")
            i = bisect_right(starts, pos) - 1
            lo, hi = spans[i] if i >= 0 else (0, len(text))
            if foreign_gone := foreign_drops(text[lo:hi], w.group()):
                names = names | {FOREIGN_TAG + c for c in foreign_gone}
        if "rules" in names and tool_rules(text, pos):
            names = names - {"rules"}  # "the old lint rules": the linter's, not the agent's
        for gone, inside in inside_idiom.items():
            if gone in names and inside.covers(pos, pos + 1):
                names = names - {gone}
        if "negation" in names and (
            inside_without.covers(pos, pos + 1)
            or suggests(pos)
            or ((w := WORD.match(text, pos)) is not None and not negates(pos, w.end()))
        ):
            names = names - {"negation"}
        if "concord" in names and "negation" in names:
            # ... or shortly before it: "ни у кого не спрашивая" (no one asked)
            i = bisect_right(after, pos)
            if (i > 0 and pos - after[i - 1] <= _CONCORD_REACH) or (
                i < len(after) and after[i] - pos <= _CONCORD_BEFORE
            ):
                names = names - {"negation"}
        out.append((pos, names))
    for pos, end, names in hits:
        if "agent" in names:
            names = names - drops_at(pos, "agent")
        if "touser" in names and text.startswith(("'s", "’s"), end):
            names = names - {"touser"}  # "to the user's manager": the user owns what someone else is told
        if "rules" in names and tool_rules(text, pos):
            names = names - {"rules"}
        if names & _QUIET and inside_idiom["conceal"].covers(pos, end, strictly=True):
            names = names - _QUIET  # "알림을 조용히": the phrase "조용히" inside the quiet delivery
        if "negation" in names and (
            inside_without.covers(pos, end, strictly=True)
            or inside_idiom["negation"].covers(pos, end, strictly=True)
            or not negates(pos, end)
            or suggests(pos)
        ):
            names = names - {"negation"}
        out.append((pos, names))
    out.sort(key=lambda x: x[0])
    return out


#: A concept a word does not carry inside the idioms of the given concepts: "even" opening "even
#: if" or "even when" concedes a case (read as one: "approve it even if the checks fail"), it
#: claims nothing ("say so anyway, even"); "free" in "feel free to" or "free of charge" invites
#: or costs nothing, it unbinds no one; the negation in "don't hesitate to", "no dudes en",
#: "не стесняйся" (``invite``) encourages the act, it forbids nothing.
_IDIOMS = {
    "claim": frozenset({"truthless", "concession"}),
    "unbound": frozenset({"freely"}),
    "negation": frozenset({"invite"}),
    "conceal": frozenset({"quietnote"}),  # "silent notifications": delivered without a sound, nothing hidden
    "covert": frozenset({"quietnote"}),
}
_QUIET = frozenset({"conceal", "covert"})
_CONCORD_REACH = 40  # characters from a "without" to the pronoun it governs
#: A file path (a run of path characters with a slash, not a link: links are read out before):
#: a word in it names a folder or a file. A folder called Downloads fetches nothing and a file
#: called tasks.json is no channel of tasks; its secrets ("~/.ssh/id_rsa") still are secrets.
#: Possessive runs: the first holds no slash, so giving characters back never finds one (the same
#: matches as PATH_PLAIN, a third faster).
_PATH = re.compile(r"(?<![\w.~$%/-])[\w.~$%{}-]*+/[\w.~$%{}/-]*+", re.ASCII)
PATH_PLAIN = r"(?<![\w.~$%/-])[\w.~$%{}-]*/[\w.~$%{}/-]*"
_PLACE_NAMED = frozenset({"channel", "fetch"})
#: The concepts :func:`concept_positions` judges a word's context for (a word with none of them
#: keeps what the lexicon gives it).
_READ_IN_CONTEXT = (
    _PLACE_NAMED | intent_nouns.PRONE | CODE_ACTS | {"execute", "agent", "rules", "negation", "concord"}
    | frozenset(_IDIOMS)
)
_CONCORD_BEFORE = 16  # ... from the pronoun to a "without" it precedes ("ни у кого не спрашивая")
#: "Why not ...?" suggests the act it seems to negate: "why not delete them all", "por qué no
#: borras", "pourquoi ne pas", "почему бы не", "warum nicht" (accents folded; "perché" is also "because").
_NOT_TO = re.compile(r"(?:not|no)\s+(?:to|one|se|hay)\b|never\b|nobody\b")  # "why not to ...": an explanation
_WHY_NOT = re.compile(
    r"(?:(?<!\w)(?:why|por que|porque|pourquoi|perche|почему|warum|sao|لماذا|لم|क्यों)(?!\w)|为什么|为何|干嘛|何不)"
    r"[^.!?。！？\n]*$"
)
_WHY_REACH = 48  # characters from "why" to its negation: "warum löschst du die testdatenbank nicht"
_SENTENCE_STOP = re.compile(r"[.!?。！？]")


class _Covers:
    """Whether some span of a set covers ``[lo, hi)``, in log time per question (a line of
    thousands of "without ... never" pairs asked every negation against every span: quadratic)."""

    def __init__(self, spans: list[tuple[int, int]]) -> None:
        self.spans = sorted(spans)
        self.starts = [a for a, _ in self.spans]
        self.reach: list[int] = []  # furthest end among the spans up to each one
        for _, b in self.spans:
            self.reach.append(max(b, self.reach[-1]) if self.reach else b)

    def covers(self, lo: int, hi: int, strictly: bool = False) -> bool:
        """A span ``a <= lo``, ``hi <= b``; ``strictly``: longer than ``[lo, hi)`` itself."""
        if not self.spans:
            return False
        if not strictly:
            i = bisect_right(self.starts, lo) - 1
            return i >= 0 and self.reach[i] >= hi
        i = bisect_left(self.starts, lo) - 1  # spans starting before lo: any end >= hi is longer
        if i >= 0 and self.reach[i] >= hi:
            return True
        j = bisect_left(self.starts, lo)
        while j < len(self.spans) and self.starts[j] == lo:
            if self.spans[j][1] > hi:
                return True
            j += 1
        return False
