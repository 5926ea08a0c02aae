"""One set of coercers and one error type for every settings section, and pi's template rule."""

from __future__ import annotations

from typing import Any

import pytest

from pi_memory.base.settings import (
    SettingsError,
    deep_merge,
    expand_env_template,
    flag,
    interpolate,
    number,
    text,
    whole,
    whole_number,
)


@pytest.mark.parametrize(("value", "expected"), [
    (True, True), (False, False), ("true", True), (" Yes ", True), ("on", True), ("1", True),
    ("false", False), ("OFF", False), ("no", False), ("0", False),
])
def test_flags_accept_json_booleans_and_their_interpolated_spellings(value: Any, expected: bool) -> None:
    assert flag("s.enabled", value) is expected


@pytest.mark.parametrize("value", ["maybe", 1, None, [], ""])
def test_a_flag_that_means_nothing_names_the_key(value: Any) -> None:
    with pytest.raises(SettingsError, match=r"^s\.enabled must be true or false"):
        flag("s.enabled", value)


def test_whole_numbers_come_from_numbers_and_digit_strings_but_not_booleans() -> None:
    assert [whole_number(v) for v in (2200, 2200.0, " +2200 ", "22.5", True, None)] == [2200, 2200, 2200, None,
                                                                                        None, None]
    assert whole("s.n", "10", minimum=1, example=10) == 10
    with pytest.raises(SettingsError, match=r"s\.n must be a whole number \(e\.g\. 10\), not true"):
        whole("s.n", True, minimum=1, example=10)
    with pytest.raises(SettingsError, match=r"s\.n must be a whole number \(e\.g\. 10\), got 'lots'"):
        whole("s.n", "lots", minimum=1, example=10)
    with pytest.raises(SettingsError, match=r"s\.n must be at least 1, got 0"):
        whole("s.n", 0, minimum=1, example=10)


def test_numbers_are_finite_and_bounded() -> None:
    assert number("s.x", " 0.5 ", minimum=0, example="1") == 0.5
    assert number("s.x", 0, minimum=0, example="1") == 0.0
    for junk in ("nan", "inf", -1, "x", None):
        with pytest.raises(SettingsError, match=r"s\.x must be a number 0 or more \(e\.g\. 1\)"):
            number("s.x", junk, minimum=0, example="1")
    with pytest.raises(SettingsError, match=r"s\.x must be a number above 0"):
        number("s.x", 0, minimum=0, example="5", exclusive=True)
    with pytest.raises(SettingsError, match=r"s\.h must be a number of hours, 0 or more \(e\.g\. 24\), not false"):
        number("s.h", False, minimum=0, example="24", unit="hours")


def test_text_is_stripped_and_must_be_a_string() -> None:
    assert text("s.rank", " recency ", "relevance") == "recency"
    with pytest.raises(SettingsError, match=r"s\.rank must be a string \(e\.g\. 'relevance'\), got 3"):
        text("s.rank", 3, "relevance")


def test_every_section_raises_the_same_error_type() -> None:
    from pi_memory.backends import SettingsError as BackendsError
    from pi_memory.extensions.memory.settings import SettingsError as MemoryError
    from pi_memory.extensions.recall.settings import RecallSettingsError, parse_recall_settings

    assert BackendsError is MemoryError is RecallSettingsError is SettingsError
    assert issubclass(SettingsError, ValueError)
    with pytest.raises(SettingsError, match=r"pi-memory-recall\.batchSize"):
        parse_recall_settings({"batchSize": "lots"})


def test_templates_follow_pis_resolve_config_value_rule() -> None:
    env = {"USER_NAME": "ada", "EMPTY": ""}
    assert expand_env_template("$USER_NAME-${USER_NAME}", env).value == "ada-ada"
    assert expand_env_template("cost $$5 and $! and $5", env).value == "cost $5 and ! and $5"
    kept = expand_env_template("${A:-b}", env)
    assert (kept.value, kept.kept) == ("${A:-b}", ("${A:-b}",))
    missing = expand_env_template("p$EMPTY$NOPE$EMPTY", env)
    assert (missing.value, missing.missing) == (None, ("EMPTY", "NOPE"))


ENV = {"NAME": "alice", "EMPTY": "", "DIR": "/data", "lower": "x"}


@pytest.mark.parametrize(
    ("raw", "expected"),
    [  # pi 1.6.0's rule (dist/core/resolve-config-value.js, parseConfigValueTemplate + resolveTemplate)
        ("${NAME}", "alice"),
        ("$NAME", "alice"),
        ("${DIR}/memories for $NAME", "/data/memories for alice"),
        ("$lower/y", "x/y"),  # any [A-Za-z_] name, not only capitals
        ("pa$$SSWORD-dir", "pa$SSWORD-dir"),  # $$ is a literal $
        ("$$NAME and $!", "$NAME and !"),  # $! is a literal !
        ("price $5, 100$ and ${", "price $5, 100$ and ${"),  # a $ that starts no name stays
        ("${MISSING:-fallback}", "${MISSING:-fallback}"),  # not a name: kept as written (no defaults in pi)
        ("${NAME", "${NAME"),
        ("pa$SSWORD-dir", None),  # an unset variable: unresolved, never "pa-dir"
        ("${EMPTY}", None),  # empty counts as unset, as in pi
        ("$NAME$MISSING", None),
    ],
)
def test_interpolation_follows_pis_template_rule(raw: str, expected: str | None) -> None:
    assert interpolate(raw, ENV) == expected


def test_interpolation_walks_nested_values_and_leaves_non_strings() -> None:
    value = {"a": ["$NAME", {"b": "${DIR}"}], "n": 3, "t": True, "z": None}
    assert interpolate(value, ENV) == {"a": ["alice", {"b": "/data"}], "n": 3, "t": True, "z": None}


def test_interpolation_leaves_out_unresolved_values_and_says_where() -> None:
    notes: list[tuple[str, str, bool]] = []
    value = {"dsn": "postgresql://u:pa$Xw@h/db", "l": ["$NAME", "$NOPE"], "d": "${A:-b}", "keep": 1}
    out = interpolate(value, ENV, report=lambda *note: notes.append(note), where="pi-memory")
    assert out == {"l": ["alice"], "d": "${A:-b}", "keep": 1}
    assert [(where, fatal) for where, _, fatal in notes] == [
        ("pi-memory.dsn", True), ("pi-memory.l[1]", True), ("pi-memory.d", False)]
    assert "$Xw is not set" in notes[0][1] and "$$" in notes[0][1]


def test_deep_merge_replaces_lists_and_scalars() -> None:
    assert deep_merge({"a": {"x": 1, "l": [1]}, "s": 1}, {"a": {"l": [2]}, "s": None}) == {
        "a": {"x": 1, "l": [2]}, "s": None}
