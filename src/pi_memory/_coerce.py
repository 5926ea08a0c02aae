"""Settings values as they arrive: numbers in strings (``"2200"``), and pi's ``$NAME`` templates.

:func:`expand_env_template` is pi 1.6.0's own rule for the values it expands — ``apiKey`` and
header values in ``models.json``, keys in ``auth.json``, ``env``/headers in ``mcp.json``
(``parseConfigValueTemplate`` and ``resolveTemplate`` in ``dist/core/resolve-config-value.js``).
pi does not expand ``settings.json`` at all; where we do (the user's own settings files), we use
exactly that rule, so one spelling means one thing in every file a pi user writes.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["Expanded", "expand_env_template", "whole_number"]

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


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


@dataclass(frozen=True)
class Expanded:
    """One template's outcome: ``value`` is ``None`` when a variable it names is unset or empty."""

    value: str | None
    missing: tuple[str, ...] = ()
    """Variables the template names that are unset or empty, in order, once each."""
    kept: tuple[str, ...] = ()
    """``${...}`` spans that are not a variable name (``${A:-b}``) and so stay as written."""


def expand_env_template(text: str, env: Mapping[str, str] | None = None) -> Expanded:
    """Expand ``text`` as pi's ``resolveConfigValue`` expands a non-command value.

    ``$NAME`` (the longest ``[A-Za-z_][A-Za-z0-9_]*``) and ``${NAME}`` name a variable; ``$$``
    is a literal ``$`` and ``$!`` a literal ``!``; any other ``$`` (``$5``, a ``${`` without
    ``}``) stays as written, and so does a ``${...}`` whose inside is not a name. A variable
    that is unset or empty makes the whole value unresolved (pi returns ``undefined``), so a
    ``$`` meant literally is never silently dropped from the middle of a password or a path.
    """
    environ = os.environ if env is None else env
    parts: list[str] = []
    missing: list[str] = []
    kept: list[str] = []
    index, length = 0, len(text)
    while index < length:
        dollar = text.find("$", index)
        if dollar < 0:
            parts.append(text[index:])
            break
        parts.append(text[index:dollar])
        following = text[dollar + 1:dollar + 2]
        if following in ("$", "!"):
            parts.append(following)
            index = dollar + 2
            continue
        name: str | None = None
        if following == "{":
            end = text.find("}", dollar + 2)
            if end < 0:
                parts.append("$")
                index = dollar + 1
                continue
            inside = text[dollar + 2:end]
            if _NAME.fullmatch(inside):
                name = inside
            else:
                parts.append(text[dollar:end + 1])
                kept.append(text[dollar:end + 1])
            index = end + 1
        else:
            match = _NAME.match(text, dollar + 1)
            if match is None:
                parts.append("$")
                index = dollar + 1
                continue
            name = match.group(0)
            index = match.end()
        if name is not None:
            current = environ.get(name) or ""
            if not current and name not in missing:
                missing.append(name)
            parts.append(current)
    return Expanded(None if missing else "".join(parts), tuple(missing), tuple(kept))
