"""JavaScript semantics in one place: trim, truthiness, and the bytes JSON.stringify would write (reference §1.3)."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_memory.base import js as jsjson
from pi_memory.base.js import dumps, js_number, js_trim, js_truthy


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (0.000009, "0.000009"),
        (9e-06, "0.000009"),
        (1e-7, "1e-7"),
        (1.5e-7, "1.5e-7"),
        (0.000001, "0.000001"),
        (1e21, "1e+21"),
        (1.5e21, "1.5e+21"),
        (1e20, "100000000000000000000"),
        (123456789012345680000.0, "123456789012345680000"),
        (1e16, "10000000000000000"),
        (1.0, "1"),
        (-2.0, "-2"),
        (-0.0, "0"),
        (0.1 + 0.2, "0.30000000000000004"),
        (5e-324, "5e-324"),
        (1.7976931348623157e308, "1.7976931348623157e+308"),
        (float("nan"), "null"),
        (float("inf"), "null"),
        (float("-inf"), "null"),
        (12, "12"),
        (True, "true"),
        (2**64, "18446744073709551616"),  # Python ints stay exact (documented)
    ],
)
def test_js_number(value: float, expected: str) -> None:
    assert js_number(value) == expected


def test_strings_match_json_stringify() -> None:
    assert dumps("é😀\u2028\u2029/") == '"é😀\u2028\u2029/"'  # raw, not escaped
    assert dumps('"\\\b\f\n\r\t\x00\x1f\x7f') == '"\\"\\\\\\b\\f\\n\\r\\t\\u0000\\u001f\x7f"'
    assert dumps("a\ud800b") == '"a\\ud800b"'  # lone surrogate escaped, lowercase
    assert dumps("\udc00\ud800") == '"\\udc00\\ud800"'
    assert dumps("\ud83d\ude00") == '"😀"'  # a surrogate pair is one character in JavaScript
    assert dumps("a\ud800b").encode("utf-8")  # always encodable


def test_objects_compact_ordered_like_javascript() -> None:
    assert (
        dumps({"b": 1, "a": [1, 2.5, None, True, {}], "c": {"x": []}})
        == '{"b":1,"a":[1,2.5,null,true,{}],"c":{"x":[]}}'
    )
    # integer-like keys come first, ascending, as in a JavaScript object
    assert dumps({"b": 1, "10": 2, "2": 3, "01": 4, "4294967295": 5, "4294967294": 6}) == (
        '{"2":3,"10":2,"4294967294":6,"b":1,"01":4,"4294967295":5}'
    )
    assert dumps({1: "a"}) == '{"1":"a"}'
    assert dumps((1, 2)) == "[1,2]"
    with pytest.raises(TypeError):
        dumps({"x": object()})


def test_loads_rejects_what_json_parse_rejects() -> None:
    for bad in ("NaN", '{"a":Infinity}', "-Infinity"):
        with pytest.raises(ValueError):
            jsjson.loads(bad)
    assert jsjson.loads('{"a":1.0}') == {"a": 1.0}


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.floats(allow_nan=False) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4),
    max_leaves=20,
)


@given(json_values)
def test_round_trip_through_our_own_output(value: object) -> None:
    text = dumps(value)
    again = jsjson.loads(text)
    assert dumps(again) == text  # stable: what we write reads back to the same bytes


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_numbers_parse_back_exactly(value: float) -> None:
    assert float(js_number(value)) == value or (value == 0 and float(js_number(value)) == 0)
    assert math.isfinite(float(js_number(value)))


def test_plain_json_for_ordinary_data() -> None:
    data = {"type": "message", "text": "ü", "n": [1, 0.5, 123.25]}
    assert dumps(data) == json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def test_trim_removes_what_javascript_trim_removes_and_nothing_else() -> None:
    # U+FEFF and U+00A0 are JavaScript whitespace (str.strip() keeps U+FEFF); U+200B is not.
    assert js_trim("\ufeff\u00a0 fact\u2028\u3000") == "fact"
    assert js_trim("\u200bfact") == "\u200bfact"
    assert js_trim("\x1cfact") == "\x1cfact"  # str.strip() would remove it


@pytest.mark.parametrize(
    ("value", "truthy"),
    [(None, False), (False, False), ("", False), (0, False), (0.0, False), (math.nan, False),
     ("0", True), ([], True), ({}, True), (-1, True), (True, True)],
)
def test_truthiness_is_javascript_s(value: object, truthy: bool) -> None:
    assert js_truthy(value) is truthy


def test_the_session_and_memory_layers_share_these_helpers() -> None:
    """One implementation: the public session.jsjson names are the base ones."""
    from pi_memory.session import jsjson as session_jsjson

    assert session_jsjson.dumps is dumps
    assert session_jsjson.loads is jsjson.loads
