"""Settings values as they arrive, checked one way for every section: one error type, one set of coercers.

Settings arrive as JSON, often after ``$VAR`` interpolation, so numbers may be strings
(``"4000"``) and booleans may be ``"false"``. The coercers here accept those and refuse anything
else with a :class:`SettingsError` whose message names the key (``where``, e.g.
``"pi-memory.poolSize"``) and shows a valid value, because a typo in settings.json should be
fixed by the user, not silently replaced by a default.

:func:`expand_env_template` is pi 1.6.0's own rule for the values it expands — ``apiKey`` and
header values in ``models.json``, keys in ``auth.json``, ``env``/headers in ``mcp.json``
(``parseConfigValueTemplate`` and ``resolveTemplate`` in ``dist/core/resolve-config-value.js``).
pi does not expand ``settings.json`` at all; where we do (the user's own settings files), we use
exactly that rule, so one spelling means one thing in every file a pi user writes;
:func:`interpolate` applies it to a whole section and :func:`deep_merge` is pi's merge of layers.
Reading the files (layers, project trust) is :mod:`pi_memory.host.settings`.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["FALSE_WORDS", "TRUE_WORDS", "Expanded", "SettingsError", "deep_merge", "expand_env_template", "flag",
           "interpolate", "json_kind", "number", "text", "whole", "whole_number"]

TRUE_WORDS = frozenset({"true", "1", "yes", "on"})
FALSE_WORDS = frozenset({"false", "0", "no", "off"})

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


class SettingsError(ValueError):
    """A setting cannot be used; the message names the key and says how to fix it."""


def flag(where: str, value: Any) -> bool:
    """``value`` as a boolean: ``true``/``false``, or one of :data:`TRUE_WORDS` / :data:`FALSE_WORDS`."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in TRUE_WORDS | FALSE_WORDS:
        return value.strip().lower() in TRUE_WORDS
    raise SettingsError(f"{where} must be true or false, got {value!r}")


def whole(where: str, value: Any, *, minimum: int, example: int) -> int:
    """``value`` as a whole number of at least ``minimum`` (see :func:`whole_number`)."""
    if isinstance(value, bool):
        raise SettingsError(f"{where} must be a whole number (e.g. {example}), not {str(value).lower()}")
    result = whole_number(value)
    if result is None:
        raise SettingsError(f"{where} must be a whole number (e.g. {example}), got {value!r}")
    if result < minimum:
        raise SettingsError(f"{where} must be at least {minimum}, got {result}")
    return result


def number(where: str, value: Any, *, minimum: float, example: str, exclusive: bool = False, unit: str = "") -> float:
    """``value`` as a finite number of at least ``minimum`` (above it when ``exclusive``).

    ``unit`` (``"hours"``) is named in the message: "must be a number of hours, 0 or more".
    """
    bound = f"above {minimum:g}" if exclusive else f"{minimum:g} or more"
    kind = f"a number of {unit}," if unit else "a number"
    if isinstance(value, bool):
        raise SettingsError(f"{where} must be {kind} {bound} (e.g. {example}), not {str(value).lower()}")
    result: float | None = None
    if isinstance(value, (int, float)):
        result = float(value)
    elif isinstance(value, str):
        try:
            result = float(value.strip())
        except ValueError:
            result = None
    below = result is not None and (result <= minimum if exclusive else result < minimum)
    if result is None or math.isnan(result) or math.isinf(result) or below:
        raise SettingsError(f"{where} must be {kind} {bound} (e.g. {example}), got {value!r}")
    return result


def text(where: str, value: Any, example: str) -> str:
    """``value`` as a string, surrounding spaces removed."""
    if not isinstance(value, str):
        raise SettingsError(f"{where} must be a string (e.g. {example!r}), got {value!r}")
    return value.strip()


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


def interpolate(
    value: Any, env: Mapping[str, str] | None = None, *, report: Callable[[str, str, bool], None] | None = None,
    where: str = "",
) -> Any:
    """Expand pi's ``$NAME`` / ``${NAME}`` templates in every string of ``value`` (``$$`` is ``$``).

    The rule is :func:`expand_env_template` (pi's ``resolveConfigValue``).
    A string naming an unset or empty variable is unresolved, as in pi: it is left out of its
    object or list (a bare string gives ``None``), and ``report(where, message, True)`` says
    which variable and how to write a literal ``$``; ``report(where, message, False)`` notes a
    ``${...}`` kept as written. Other values are returned unchanged.
    """
    if isinstance(value, str):
        expanded = expand_env_template(value, env)
        if report is not None:
            for span in expanded.kept:
                report(where, f"{span} is kept as written: only $NAME and ${{NAME}} are expanded "
                              "(pi's rule has no defaults)", False)
            if expanded.missing:
                names = ", ".join(f"${name}" for name in expanded.missing)
                report(where, f"{names} {'is' if len(expanded.missing) == 1 else 'are'} not set (or empty): set it, "
                              "or write $$ for a literal $", True)
        return expanded.value
    if isinstance(value, dict):
        result: dict[str, Any] = {}
        for key, item in value.items():
            done = interpolate(item, env, report=report, where=f"{where}.{key}" if where else str(key))
            if done is not None or item is None:
                result[key] = done
        return result
    if isinstance(value, list):
        items = [(item, interpolate(item, env, report=report, where=f"{where}[{n}]")) for n, item in enumerate(value)]
        return [done for item, done in items if done is not None or item is None]
    return value


def deep_merge(base: dict[str, Any], overrides: dict[str, Any]) -> dict[str, Any]:
    """pi's merge: nested objects merge recursively; lists and scalars are replaced."""
    result = dict(base)
    for key, value in overrides.items():
        current = base.get(key)
        if isinstance(current, dict) and isinstance(value, dict):
            result[key] = deep_merge(current, value)
        else:
            result[key] = value
    return result


def json_kind(value: Any) -> str:
    """How a JSON value is named in a message: ``a list``, ``a string ('x')``, ``true``."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return f"a string ({value!r})"
    if isinstance(value, list):
        return "a list"
    return f"a number ({value!r})" if isinstance(value, (int, float)) else type(value).__name__
