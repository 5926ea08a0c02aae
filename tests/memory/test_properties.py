"""Properties of the `§` entry format, drift detection and delimiter refusal (hypothesis).

The oracles here are written independently of ``entries.py``: their own
whitespace set (JavaScript's ``trim``), their own split and their own
definition of "round-trips":

    A file round-trips when rewriting it through the tools (split on the exact
    delimiter, trim pieces, drop empty ones, join) keeps every non-whitespace
    character, and every entry is one the tools themselves could have written:
    it fits the budget in code points and in UTF-16 units (a larger one can only
    be free text appended by hand, or one pi-memory would refuse), and it holds
    no line that is `§` once carriage returns are stripped (so it keeps its
    boundaries whatever is added or rewritten next to it, and a file saved with
    Windows line endings is not read as one entry). Whitespace around entries
    is cosmetic (hermes-agent #61523).

Drift must be reported exactly when a file does not round-trip.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from pi_memory.base.lock import publish as lock_publish
from pi_memory.memory import MemoryStore
from pi_memory.memory.entries import drift_reason, parse_entries, serialize_entries

DELIM = "\n§\n"
# JavaScript's WhiteSpace + LineTerminator (what String.prototype.trim removes), spelled out
# as ranges here; NEL (U+0085) and the C0 separators are *not* JS whitespace.
_JS_SPACE = "\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_EDGES = re.compile(f"^[{_JS_SPACE}]+|[{_JS_SPACE}]+$")
_ANY_SPACE = re.compile(f"[{_JS_SPACE}]")


def trim(text: str) -> str:
    return _EDGES.sub("", text)


def bears_delimiter(content: str) -> bool:
    """A line that reads as a delimiter once carriage returns go: it cannot survive as one entry."""
    return any(line.strip("\r") == "§" for line in content.split("\n"))


def utf16_units(text: str) -> int:
    return sum(2 if ord(ch) > 0xFFFF else 1 for ch in text)


def first_occurrences(entries: list[str]) -> list[str]:
    seen: set[str] = set()
    out = []
    for entry in entries:
        if entry not in seen:
            seen.add(entry)
            out.append(entry)
    return out


def oracle_entries(raw: str) -> list[str]:
    return [piece for piece in (trim(p) for p in raw.split(DELIM)) if piece]


def round_trips(raw: str, limit: int) -> bool:
    if not trim(raw):
        return True
    entries = oracle_entries(raw)
    rewritten = DELIM.join(entries)
    keeps_text = _ANY_SPACE.sub("", rewritten) == _ANY_SPACE.sub("", raw)
    keeps_boundaries = oracle_entries(rewritten) == entries
    writable = all(max(len(e), utf16_units(e)) <= limit and not bears_delimiter(e) for e in entries)
    return keeps_text and keeps_boundaries and writable


# ---------------------------------------------------------------- strategies

# Small alphabet, dense in the characters that matter: the section sign, line breaks,
# JS whitespace, non-JS "spaces", a BOM, non-ASCII letters and an astral emoji.
ALPHABET = st.sampled_from(
    ["a", "b", "z", "§", "\n", "\r", " ", "\t", "\u00a0", "\u2003", "\ufeff", "\x85", "\x1c", "é", "🦀", "-"]
)
raw_chars = st.text(ALPHABET, max_size=40)

entry_text = (
    st.text(ALPHABET, min_size=1, max_size=24).map(trim).filter(lambda e: bool(e) and not bears_delimiter(e))
)
entry_lists = st.lists(entry_text, max_size=8)

WHITESPACE_PADS = st.sampled_from(["", " ", "  ", "\t", "\n", "\n\n", "\r", " \n \n", "\u00a0", "\ufeff"])


@st.composite
def built_files(draw: st.DrawFn) -> str:
    """Files assembled from entries, blank pieces, padding, stray delimiters and CRLF."""
    parts = draw(
        st.lists(
            st.one_of(
                entry_text,
                st.sampled_from(["", " ", "\n", "\r", "\t \t"]),  # blank pieces
                st.tuples(WHITESPACE_PADS, entry_text, WHITESPACE_PADS).map("".join),
                st.tuples(entry_text, st.sampled_from(["\r\n", "\n", " "]), entry_text).map("".join),
                st.sampled_from(["a\n§ ", " §\nb", "§", " § ", "a\r\n§\r\nb", "x\n§"]),  # edge shapes
                raw_chars,
            ),
            min_size=1,
            max_size=7,
        )
    )
    text = DELIM.join(parts)
    return draw(WHITESPACE_PADS) + text + draw(st.sampled_from(["", "\n", DELIM, "\n§", " \n"]))


@st.composite
def cosmetic_files(draw: st.DrawFn) -> tuple[list[str], str]:
    """Clean entries (possibly multi-line with CRLF inside), laid out with cosmetic whitespace only."""
    lines = st.lists(entry_text, min_size=1, max_size=3)
    entries = draw(
        st.lists(
            st.tuples(lines, st.sampled_from(["\n", "\r\n"])).map(lambda t: t[1].join(t[0])).map(trim),
            min_size=1,
            max_size=6,
        ).filter(lambda es: all(e and not bears_delimiter(e) for e in es))
    )
    pieces = []
    for entry in entries:
        indent = draw(st.sampled_from(["", " ", "    ", "\t", "\u3000"]))
        before = draw(st.sampled_from(["", "\n", "\n\n", "\r\n", " \n"]))  # blank lines after §
        after = draw(st.sampled_from(["", " ", "\n", "\n\n", "\r", "\r\n", "\t\n"]))  # blank lines before §
        pieces.append(before + indent + entry + after)
    text = DELIM.join(pieces)
    lead = draw(st.sampled_from(["", "\ufeff", "\n", "  "]))
    tail = draw(st.sampled_from(["", "\n", "\r\n", "\n\n"]))
    return entries, lead + text + tail


PROPERTY = settings(max_examples=400, deadline=None)
STORE_PROPERTY = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)


# ---------------------------------------------------------------- parse / serialize


@PROPERTY
@given(entry_lists)
def test_parse_of_serialize_gives_the_entries_back_deduplicated(entries: list[str]) -> None:
    text = serialize_entries(entries)
    assert not text.endswith("\n")
    assert parse_entries(text) == first_occurrences(entries)


@PROPERTY
@given(entry_lists)
def test_parse_serialize_is_idempotent(entries: list[str]) -> None:
    once = serialize_entries(parse_entries(serialize_entries(entries)))
    twice = serialize_entries(parse_entries(once))
    assert once == twice == serialize_entries(first_occurrences(entries))
    assert drift_reason(once, 10_000) is None


@PROPERTY
@given(st.one_of(raw_chars, built_files()))
@example("a\n§ \n§\nb")  # trimming exposes a trailing "\n§"
@example("a\n§\n §\nb")  # ...or a leading "§\n"
def test_serialize_parse_reparses_to_same_list(raw: str) -> None:
    """Any text the tools would write over (no drift) keeps its entries through a rewrite.

    (For a drifted file the store refuses to write, so there is nothing to keep.)
    """
    assume(drift_reason(raw, 10_000) is None)
    entries = parse_entries(raw)
    assert parse_entries(serialize_entries(entries)) == entries


def test_rewrite_that_would_move_entry_boundaries_is_drift() -> None:
    """Concrete case of the property above: the space after the first § hides a trailing "\\n§"."""
    raw = "a\n§ \n§\nb"
    assert parse_entries(raw) == ["a\n§", "b"]
    assert parse_entries(serialize_entries(parse_entries(raw))) == ["a", "§\nb"]  # boundaries moved
    assert drift_reason(raw, 10_000) is not None


# ---------------------------------------------------------------- drift oracle


@PROPERTY
@given(st.one_of(built_files(), raw_chars), st.sampled_from([3, 8, 40, 10_000]))
@example("one\n§\ntwo\n§\n", 10_000)  # trailing delimiter
@example("one\n§\n\n§\ntwo", 10_000)  # empty entry
@example("one\n\n§\ntwo", 10_000)  # blank line before § (hermes #61523): cosmetic
@example("one\n§\n  two", 10_000)  # indentation: cosmetic
@example("a\r\n§\r\nb", 10_000)  # CRLF file: would read as one entry
@example("a\n§\r\nb", 10_000)  # one Windows-style delimiter line
@example("🦀" * 5, 8)  # 5 code points, 10 UTF-16 units
@example("x" * 41, 40)  # one entry over the budget
@example("\n§\n", 10_000)
@example("a\n§ \n§\nb", 10_000)
@example("a\n§ ", 10_000)  # alone it survives, but the next add would split it
def test_drift_exactly_when_the_file_does_not_round_trip(raw: str, limit: int) -> None:
    expected = not round_trips(raw, limit)
    reason = drift_reason(raw, limit)
    assert (reason is not None) == expected, f"drift_reason={reason!r} for {raw!r} (limit {limit})"


@PROPERTY
@given(cosmetic_files())
@example((["a", "b"], "a\n\n§\nb"))
@example((["line one\r\nline two", "b"], "line one\r\nline two\r\n§\n  b\n"))
def test_cosmetic_whitespace_never_drifts(case: tuple[list[str], str]) -> None:
    entries, raw = case
    assert drift_reason(raw, 10_000) is None
    assert parse_entries(raw) == first_occurrences(entries)


@STORE_PROPERTY
@given(cosmetic_files())
def test_store_edits_a_cosmetically_spaced_file_instead_of_refusing(case: tuple[list[str], str]) -> None:
    entries, raw = case
    live = first_occurrences(entries)
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        (directory / "MEMORY.md").write_text(raw, newline="")
        store = MemoryStore(directory, memory_char_limit=100_000)
        result = store.replace("memory", live[0], "replacement entry")
        assert result["success"], result
        expected = first_occurrences(["replacement entry", *live[1:]])
        on_disk = (directory / "MEMORY.md").read_bytes().decode("utf-8")
        assert on_disk == DELIM.join(expected)  # normalised, nothing lost
        lock_publish.drop_spares()  # as at exit: this process's own spare lock dirs are not debris
        assert sorted(p.name for p in directory.iterdir()) == ["MEMORY.md"]  # no .bak, no lock


# ---------------------------------------------------------------- delimiter-bearing content


@st.composite
def delimiter_bearing(draw: st.DrawFn) -> str:
    text = st.text(ALPHABET, max_size=12)
    shape = draw(st.sampled_from(["inside", "crlf", "starts", "ends", "alone", "padded-alone"]))
    if shape == "inside":
        content = draw(text) + DELIM + draw(text)
    elif shape == "crlf":
        line = draw(st.sampled_from(["§\r", "\r§", "§\r\r", "\r§\r"]))
        content = draw(text) + "\n" + line + "\n" + draw(text)
    elif shape == "starts":
        content = "§\n" + draw(text)
    elif shape == "ends":
        content = draw(text) + "\n§"
    elif shape == "alone":
        content = "§"
    else:
        content = draw(WHITESPACE_PADS) + "§" + draw(WHITESPACE_PADS)
    return draw(WHITESPACE_PADS) + content + draw(WHITESPACE_PADS)


SEED = "alpha fact\n§\nbeta fact"


def _assert_refused(result: dict, field: str) -> None:
    assert result["success"] is False
    assert "delimiter" in result["error"], result["error"]
    assert field in result["error"]


@STORE_PROPERTY
@given(delimiter_bearing())
def test_delimiter_bearing_content_is_always_refused_and_the_file_is_unchanged(content: str) -> None:
    assert bears_delimiter(trim(content))
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        path = directory / "MEMORY.md"
        path.write_text(SEED)
        store = MemoryStore(directory)
        _assert_refused(store.add("memory", content), "Content")
        _assert_refused(store.replace("memory", "alpha", content), "newContent")
        _assert_refused(store.add("user", content), "Content")
        assert path.read_text() == SEED
        assert sorted(p.name for p in directory.iterdir()) == ["MEMORY.md"]  # no USER.md, no lock
        assert store.read("memory")["entries"] == ["alpha fact", "beta fact"]


VISIBLE = st.sampled_from(["a", "b", "§", "\n", " ", "é", "-", "\r"])


@STORE_PROPERTY
@given(st.text(VISIBLE, min_size=1, max_size=20).map(trim).filter(lambda e: "§" in e and not bears_delimiter(e)))
def test_content_with_a_harmless_section_sign_is_accepted_and_round_trips(content: str) -> None:
    """The refusal is exact: a `§` that can't fuse with a delimiter is ordinary text."""
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        (directory / "MEMORY.md").write_text(SEED)
        store = MemoryStore(directory, memory_char_limit=100_000)
        result = store.add("memory", content)
        assert result["success"], result
        fresh = MemoryStore(directory, memory_char_limit=100_000)
        fresh.load_from_disk()
        assert fresh.get_entries("memory") == first_occurrences(["alpha fact", "beta fact", content])


# ---------------------------------------------------------------- the store's own-write shortcut

operations = st.lists(
    st.tuples(st.sampled_from(["add", "replace", "remove"]), st.text(ALPHABET, max_size=24), entry_text),
    min_size=1,
    max_size=12,
)


@STORE_PROPERTY
@given(operations, st.sampled_from([6, 40, 10_000]))
def test_text_the_store_wrote_parses_back_to_its_entries_without_drift(
    ops: list[tuple[str, str, str]], limit: int
) -> None:
    """A mutation skips parsing when the file holds exactly what the store last wrote; that is
    sound only if every write parses back to the same entries with no drift, whatever was asked."""
    from pi_memory.memory.entries import parse_checked

    with tempfile.TemporaryDirectory() as tmp:
        store = MemoryStore(tmp, memory_char_limit=limit)
        for action, text, entry in ops:
            if action == "add":
                store.add("memory", text)
            elif action == "replace":
                store.replace("memory", entry[:3], text)
            else:
                store.remove("memory", entry[:3])
            path = Path(tmp) / "MEMORY.md"
            if path.exists():
                on_disk = path.read_bytes().decode("utf-8")
                assert parse_checked(on_disk, limit) == (store.get_entries("memory"), None)
        lock_publish.drop_spares()


# ---------------------------------------------------------------- Windows line endings


@st.composite
def windows_files(draw: st.DrawFn) -> tuple[list[str], str]:
    """Two or more clean entries as a Windows editor saves them: every line ends in CRLF."""
    entries = draw(st.lists(entry_text.filter(lambda e: "\n" not in e and "\r" not in e), min_size=2, max_size=5,
                            unique=True))
    crlf = st.sampled_from(["\r\n§\r\n", "\n§\r\n", "\r\n§\r\r\n"])  # all CRLF, one line, a doubled CR
    text = entries[0]
    for entry in entries[1:]:
        text += draw(crlf) + entry
    return entries, text + draw(st.sampled_from(["", "\r\n"]))


@STORE_PROPERTY
@given(windows_files(), st.sampled_from(["memory", "user"]))
def test_a_file_with_windows_line_endings_is_drift_and_nothing_is_deleted(
    case: tuple[list[str], str], target: str
) -> None:
    """Its `§\\r` lines are no delimiters, so the file reads as one entry; a remove by one fact's
    words would match that "entry" and delete every fact. It must be refused, with a backup."""
    entries, raw = case
    name = "MEMORY.md" if target == "memory" else "USER.md"
    assert "Windows line endings" in (drift_reason(raw, 100_000) or "")
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        data = raw.encode("utf-8")
        (directory / name).write_bytes(data)
        store = MemoryStore(directory, memory_char_limit=100_000, user_char_limit=100_000)
        for result in (store.remove(target, entries[0]), store.replace(target, entries[0], "new fact"),
                       store.add(target, "new fact")):
            assert result["success"] is False
            assert "Windows line endings" in result["error"] and "LF" in result["remediation"]
            assert Path(result["driftBackup"]).read_bytes() == data
        assert (directory / name).read_bytes() == data
        assert "Windows line endings" in store.read(target)["warning"]
        lock_publish.drop_spares()


# ---------------------------------------------------------------- text that is not UTF-8

SURROGATES = st.integers(0xD800, 0xDFFF).map(chr)


@st.composite
def with_a_surrogate(draw: st.DrawFn) -> str:
    text = draw(entry_text)
    at = draw(st.integers(0, len(text)))
    return text[:at] + draw(SURROGATES) + text[at:]


@STORE_PROPERTY
@given(with_a_surrogate(), st.sampled_from(["add", "replace-old", "replace-new", "remove"]))
def test_text_with_a_lone_surrogate_is_refused_as_invalid_text(text: str, call: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        (directory / "MEMORY.md").write_text(SEED)
        store = MemoryStore(directory)
        if call == "add":
            result, field = store.add("memory", text), "Content"
        elif call == "replace-old":
            result, field = store.replace("memory", text, "fine"), "oldText"
        elif call == "replace-new":
            result, field = store.replace("memory", "alpha", text), "newContent"
        else:
            result, field = store.remove("memory", text), "oldText"
        assert result["success"] is False
        assert result["error"].startswith(f"{field} is not valid text"), result["error"]
        result["error"].encode("utf-8")  # the message itself is valid text (it never echoes the input)
        assert (directory / "MEMORY.md").read_text() == SEED
        assert sorted(p.name for p in directory.iterdir()) == ["MEMORY.md"]


# ---------------------------------------------------------------- pi-memory's view of our files


def pi_memory_drifts(raw: str, limit: int) -> bool:
    """pi-memory's drift rule (store.ts): the trimmed text must equal its pieces re-joined, and no
    piece may be longer than the limit in JavaScript's ``length`` (UTF-16 units)."""
    if not trim(raw):
        return False
    pieces = oracle_entries(raw)
    return trim(raw) != DELIM.join(pieces) or any(utf16_units(p) > limit for p in pieces)


emoji_heavy = st.text(st.sampled_from(["a", " ", "é", "🦀", "😀", "\n", "§"]), min_size=1, max_size=30)


@STORE_PROPERTY
@given(
    st.lists(st.tuples(st.sampled_from(["add", "replace", "remove"]), emoji_heavy, emoji_heavy), min_size=1,
             max_size=10),
    st.sampled_from([4, 9, 20, 60]),
)
@example([("add", "😀" * 3, "")], 4)  # 3 code points, 6 UTF-16 units
def test_nothing_we_write_is_drift_to_pi_memory(ops: list[tuple[str, str, str]], limit: int) -> None:
    """DESIGN §3: sharing a directory, neither side may write a file the other refuses as drift."""
    with tempfile.TemporaryDirectory() as tmp:
        store = MemoryStore(tmp, memory_char_limit=limit)
        for action, text, other in ops:
            if action == "add":
                store.add("memory", text)
            elif action == "replace":
                store.replace("memory", other[:2] or "a", text)
            else:
                store.remove("memory", text[:2] or "a")
            path = Path(tmp) / "MEMORY.md"
            if path.exists():
                raw = path.read_text(encoding="utf-8")
                assert not pi_memory_drifts(raw, limit), raw
        lock_publish.drop_spares()
