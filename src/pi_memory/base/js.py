"""JavaScript semantics shared by every layer: ``String.prototype.trim``, truthiness, ``Date`` and JSON.

pi and pi-memory are TypeScript; where their behaviour hinges on a JavaScript rule
(``if (entry.summary)``, ``name.trim()``, ``new Date(iso).getTime()``, ``JSON.stringify``) it is
mirrored here, once, so the Python and Node hosts agree on the same file.

JSON: :func:`dumps` writes exactly what ``JSON.stringify`` writes and :func:`loads` reads as
``JSON.parse`` reads. ``json.dumps`` differs in JavaScript number formatting (``0.000009``, not
``9e-06``; ``1``, not ``1.0``), in key order (integer-like keys first, JavaScript property order)
and in lone UTF-16 surrogates (escaped here instead of crashing the UTF-8 encoder). Everything else
matches ``json.dumps(..., ensure_ascii=False, separators=(",", ":"))``: non-ASCII is written raw
and U+2028/U+2029 are not escaped. Python's ``int`` is kept exact (JavaScript would round beyond
2**53); only a Python host can produce such numbers, and keeping them exact never loses user data.
"""

from __future__ import annotations

import json
import math
import re
import time
from collections.abc import Mapping
from datetime import UTC, datetime
from json.encoder import encode_basestring as _encode_basestring
from json.scanner import make_scanner
from typing import Any, Final

__all__ = [
    "JS_WHITESPACE",
    "date_parse_ms",
    "dumps",
    "is_js_number",
    "iso_now",
    "js_number",
    "js_trim",
    "js_truthy",
    "loads",
    "ms_to_datetime",
    "scan_value",
]

#: ECMAScript WhiteSpace + LineTerminator: the set ``String.prototype.trim`` removes (U+FEFF too).
JS_WHITESPACE: Final = (
    "\t\n\x0b\x0c\r \xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
    "\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)


def js_truthy(value: Any) -> bool:
    """JavaScript truthiness of a JSON value (``""``, ``0``, ``NaN``, ``null``, ``false`` are falsy)."""
    if value is None or value is False:
        return False
    if isinstance(value, str):
        return value != ""
    if isinstance(value, (int, float)):
        return value == value and value != 0
    return True


def js_trim(text: str) -> str:
    """``String.prototype.trim``: Python's ``str.strip()`` uses a different whitespace set."""
    return text.strip(JS_WHITESPACE)


def is_js_number(value: Any) -> bool:
    """``typeof value === "number"`` for values that came from JSON (bools are not numbers)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


_ISO_RE: Final = re.compile(
    r"([+-]\d{6}|\d{4})(?:-(\d\d)(?:-(\d\d))?)?"
    r"(?:T(\d\d):(\d\d)(?::(\d\d)(?:\.(\d+))?)?(Z|[+-]\d\d:\d\d)?)?"
)
_MAX_TIME_MS: Final = 8.64e15


def _days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 in the proleptic Gregorian calendar (no datetime year limits)."""
    year -= month <= 2
    era = year // 400
    yoe = year - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def _days_in_month(year: int, month: int) -> int:
    if month == 2:
        leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
        return 29 if leap else 28
    return 30 if month in (4, 6, 9, 11) else 31


def date_parse_ms(value: Any) -> float:
    """``new Date(value).getTime()`` for the ISO-8601 forms pi writes; ``nan`` when JS gives NaN.

    Only the ECMAScript date-time string format is understood (what ``toISOString`` produces and
    what every pi file holds); other strings give ``nan``. Date-only forms are UTC and date-times
    without an offset are local time, as in JavaScript.
    """
    if is_js_number(value):
        number = float(value)
        return float(math.trunc(number)) if math.isfinite(number) and abs(number) <= _MAX_TIME_MS else math.nan
    if not isinstance(value, str):
        return math.nan
    match = _ISO_RE.fullmatch(value)
    if match is None:
        return math.nan
    year_s, month_s, day_s, hour_s, minute_s, second_s, frac_s, offset = match.groups()
    if year_s == "-000000":
        return math.nan
    year = int(year_s)
    month = int(month_s) if month_s else 1
    day = int(day_s) if day_s else 1
    hour = int(hour_s) if hour_s else 0
    minute = int(minute_s) if minute_s else 0
    second = int(second_s) if second_s else 0
    millis = int((frac_s + "00")[:3]) if frac_s else 0
    if not 1 <= month <= 12 or not 1 <= day <= _days_in_month(year, month):
        return math.nan
    if minute > 59 or second > 59 or hour > 24 or (hour == 24 and (minute or second or millis)):
        return math.nan
    ms = ((_days_from_civil(year, month, day) * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + millis
    if hour_s is None:
        offset = "Z"  # date-only forms are UTC
    if offset is None:
        local = time.localtime(ms / 1000)
        ms -= (local.tm_gmtoff or 0) * 1000
    elif offset != "Z":
        sign = -1 if offset[0] == "-" else 1
        ms -= sign * (int(offset[1:3]) * 60 + int(offset[4:6])) * 60_000
    return float(ms) if abs(ms) <= _MAX_TIME_MS else math.nan


def iso_now() -> str:
    """``new Date().toISOString()``: UTC, milliseconds, ``Z``."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def ms_to_datetime(ms: float) -> datetime:
    """A JavaScript time value (Unix ms) as an aware UTC datetime."""
    return datetime.fromtimestamp(ms / 1000, UTC)


# --- JSON ---------------------------------------------------------------------------------------

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
