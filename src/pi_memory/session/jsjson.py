"""JSON exactly as JavaScript's ``JSON.stringify`` writes it, and JSON parsing as ``JSON.parse`` reads it.

pi writes every session line with ``JSON.stringify``. To produce the same bytes we need what
``json.dumps`` does differently: JavaScript number formatting (``0.000009``, not ``9e-06``;
``1``, not ``1.0``), integer-like keys first (JavaScript object property order), and lone UTF-16
surrogates escaped instead of crashing the UTF-8 encoder. Everything else matches
``json.dumps(..., ensure_ascii=False, separators=(",", ":"))``: non-ASCII is written raw and
U+2028/U+2029 are not escaped.

Python's ``int`` is kept exact (JavaScript would round beyond 2**53); only a Python host can
produce such numbers, and keeping them exact never loses user data.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from json.encoder import encode_basestring as _encode_basestring
from json.scanner import make_scanner
from typing import Any, Final

__all__ = ["dumps", "js_number", "loads", "scan_value"]

_SURROGATE_RE: Final = re.compile("[\ud800-\udfff]")
_SURROGATE_PAIR_OR_LONE_RE: Final = re.compile("([\ud800-\udbff][\udc00-\udfff])|[\ud800-\udfff]")
_MAX_ARRAY_INDEX: Final = 2**32 - 2


def js_number(value: float) -> str:
    """Format a number like ECMAScript ``Number::toString`` (what ``JSON.stringify`` uses)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return int.__repr__(value)
    if value != value or value in (math.inf, -math.inf):
        return "null"
    if value == 0:
        return "0"
    text = float.__repr__(value)
    if "e" not in text:
        # repr is already the shortest round-trip form in plain notation for 1e-4 <= |x| < 1e16,
        # which JavaScript also prints plainly; only a trailing ".0" differs.
        return text[:-2] if text.endswith(".0") else text
    sign = "-" if text[0] == "-" else ""
    mantissa, _, exp_text = text.lstrip("-").partition("e")
    int_part, _, frac_part = mantissa.partition(".")
    digits = (int_part + frac_part).lstrip("0").rstrip("0") or "0"
    # value = 0.d1d2...dk x 10**n
    n = len(int_part) + int(exp_text)
    k = len(digits)
    if k <= n <= 21:
        out = digits + "0" * (n - k)
    elif 0 < n <= 21:
        out = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        out = "0." + "0" * -n + digits
    else:
        exponent = n - 1
        head = digits[0] + ("." + digits[1:] if k > 1 else "")
        out = head + "e" + ("+" if exponent >= 0 else "-") + str(abs(exponent))
    return sign + out


def _fix_surrogate(match: re.Match[str]) -> str:
    pair = match.group(1)
    if pair is not None:  # a well-formed pair in UTF-16 terms: JavaScript writes the character raw
        return chr(0x10000 + ((ord(pair[0]) - 0xD800) << 10) + (ord(pair[1]) - 0xDC00))
    return f"\\u{ord(match.group(0)):04x}"


def _encode_string(text: str) -> str:
    encoded: str = _encode_basestring(text)
    if not text.isascii() and _SURROGATE_RE.search(text) is not None:
        encoded = _SURROGATE_PAIR_OR_LONE_RE.sub(_fix_surrogate, encoded)
    return encoded


def _is_array_index(key: str) -> bool:
    if not key.isdigit() or not key.isascii() or (key[0] == "0" and len(key) > 1):
        return False
    return int(key) <= _MAX_ARRAY_INDEX


def _key_string(key: Any) -> str:
    if isinstance(key, str):
        return key
    if key is None or isinstance(key, (bool, int, float)):
        return js_number(key) if key is not None else "null"
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(key).__name__}")


def _ordered_items(obj: Mapping[Any, Any]) -> list[tuple[str, Any]] | None:
    """Items in JavaScript property order, or None when insertion order already is that order."""
    needs_work = False
    for key in obj:
        if type(key) is not str or (key[:1].isdigit() and _is_array_index(key)):
            needs_work = True
            break
    if not needs_work:
        return None
    merged: dict[str, Any] = {}
    for key, value in obj.items():
        merged[_key_string(key)] = value
    index_keys = sorted((k for k in merged if _is_array_index(k)), key=int)
    if not index_keys:
        return list(merged.items())
    index_set = set(index_keys)
    return [(k, merged[k]) for k in index_keys] + [(k, v) for k, v in merged.items() if k not in index_set]


def _write(value: Any, out: list[str]) -> None:
    kind = type(value)
    if kind is str:
        out.append(_encode_string(value))
    elif kind is dict:
        items = _ordered_items(value)
        if not value:
            out.append("{}")
            return
        out.append("{")
        first = True
        for key, item in value.items() if items is None else items:
            if first:
                first = False
            else:
                out.append(",")
            out.append(_encode_string(key))
            out.append(":")
            _write(item, out)
        out.append("}")
    elif kind is list or kind is tuple:
        if not value:
            out.append("[]")
            return
        out.append("[")
        first = True
        for item in value:
            if first:
                first = False
            else:
                out.append(",")
            _write(item, out)
        out.append("]")
    elif kind is int:
        out.append(int.__repr__(value))
    elif kind is float:
        out.append(js_number(value))
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, str):
        out.append(_encode_string(str(value)))
    elif isinstance(value, (int, float)):
        out.append(js_number(value))
    elif isinstance(value, Mapping):
        _write(dict(value), out)
    elif isinstance(value, (list, tuple)):
        _write(list(value), out)
    else:
        raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def dumps(value: Any) -> str:
    """``JSON.stringify(value)``: compact, JavaScript numbers and key order, raw non-ASCII.

    ``None`` is written as ``null``; to leave a key out (JavaScript ``undefined``), do not put
    it in the dict.
    """
    out: list[str] = []
    _write(value, out)
    return "".join(out)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


_DECODER: Final = json.JSONDecoder(parse_constant=_reject_constant)
_SCAN: Final = make_scanner(_DECODER)  # type: ignore[arg-type]  # typeshed: it takes the decoder


def scan_value(text: str, pos: int) -> tuple[Any, int]:
    """Parse one JSON value starting exactly at ``pos``; returns the value and the end offset.

    Raises ``StopIteration`` (no value at ``pos``) or ``ValueError`` (malformed), like the C
    scanner ``json`` uses internally. ``NaN``/``Infinity`` are rejected as ``JSON.parse`` does.
    """
    result: tuple[Any, int] = _SCAN(text, pos)
    return result


def loads(text: str) -> Any:
    """``JSON.parse``: like ``json.loads`` but ``NaN``/``Infinity`` are errors, as in JavaScript."""
    return _DECODER.decode(text)
