"""Small JavaScript semantics pi relies on: truthiness, ``String.prototype.trim`` and ``Date``.

pi is TypeScript; where its behaviour hinges on a JavaScript rule (``if (entry.summary)``,
``name.trim()``, ``new Date(iso).getTime()``) we mirror that rule here so the two hosts agree
on the same file.
"""

from __future__ import annotations

import math
import re
import time
from datetime import UTC, datetime
from typing import Any, Final

# ECMAScript WhiteSpace + LineTerminator, the set String.prototype.trim removes.
_JS_WHITESPACE: Final = (
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
    return text.strip(_JS_WHITESPACE)


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
