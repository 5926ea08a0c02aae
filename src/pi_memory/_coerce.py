"""Lenient parsing of numbers that arrive as settings (``"2200"`` after ``${VAR}`` interpolation)."""

from __future__ import annotations


def whole_number(value: object) -> int | None:
    """``value`` as an int when it is one (``2200``, ``2200.0``, ``" +2200 "``), else ``None``.

    Booleans are not numbers here, although Python says ``True == 1``.
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().lstrip("+").isdigit():
        return int(value.strip())
    return None
