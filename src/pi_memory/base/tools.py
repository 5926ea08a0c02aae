"""The tool call every tool here shares (:class:`Tool`, :class:`ToolBase`, abort) and its bounded result.

:class:`Tool` is the one shape every caller of a tool relies on — the agent host, the MCP server
and the framework adapters; :class:`ToolBase` gives memory, recall and decay tools pi's
``execute`` signature once;
:func:`aborted` reads pi's abort signal. A result dict becomes a bounded :class:`ToolResult`:
what a tool hands back to the model or an MCP client.

A :class:`ToolResult` holds two views of the same object:

* ``structured_content``: the dict itself, bounded so that its compact UTF-8 JSON is at most
  :data:`OUTPUT_LIMIT_BYTES` and no top-level list holds more than :data:`MAX_RECORDS` items;
* ``content``: one text block with the pretty JSON (2-space indent, what pi-memory shows the
  model; background extraction looks for ``"success": true`` in it), bounded the same way but
  measured on its own, larger, serialisation. It is always valid JSON.

How a result is made to fit (top-level lists are "records"; the biggest list shrinks first):

1. Each list keeps its first :data:`MAX_RECORDS` items.
2. A list of dicts that all carry an ``"id"`` is clipped: the string fields other than ``id``
   are cut to a common length with a ``… [clipped N chars]`` marker and the record gets
   ``"truncated": true``. Ids always survive, so a caller can fetch the whole record by id.
   Trailing records are dropped only if even the bare records do not fit.
3. Any other list (memory entries are plain strings) is never cut inside a record: a partial
   entry without an id invites a replace that loses its tail. Whole records are dropped from the
   end instead. If a record cannot be shown whole even on its own, the entire result becomes a
   typed ``output_limit`` error that says what to do next.

When anything was cut the result gains ``truncated: true``, ``truncatedKeys`` (the lists that
were cut, in key order) and ``total`` (the original length of the first of them).
"""

from __future__ import annotations

import abc
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

__all__ = [
    "MAX_RECORDS",
    "OUTPUT_LIMIT_BYTES",
    "OUTPUT_LIMIT_ERROR",
    "TRUNCATION_SCHEMA",
    "Tool",
    "ToolBase",
    "ToolResult",
    "aborted",
    "bound_result",
    "compact_json",
    "is_output_limit",
    "pretty_json",
    "tool_result",
]

OUTPUT_LIMIT_BYTES = 12_288
MAX_RECORDS = 100
OUTPUT_LIMIT_ERROR = "output_limit"

Serializer = Callable[[Any], str]

#: Top-level scalars longer than this are not carried into an ``output_limit`` error.
_MAX_KEPT_SCALAR_CHARS = 200
_FLAG_KEYS = ("truncated", "truncatedKeys", "total")

#: The output-schema properties a bounded result may carry (see :class:`Bounds`); every tool's
#: ``output_schema`` includes them.
TRUNCATION_SCHEMA: dict[str, Any] = {
    "truncated": {"type": "boolean", "const": True},
    "truncatedKeys": {"type": "array", "items": {"type": "string"}},
    "total": {"type": "integer", "description": "Original length of the first list in truncatedKeys."},
}


def compact_json(value: Any) -> str:
    """The serialisation the byte bound is defined on (UTF-8, no spaces)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def pretty_json(value: Any) -> str:
    """The text the model reads: pi-memory's ``JSON.stringify(result, null, 2)``."""
    return json.dumps(value, ensure_ascii=False, indent=2)


def _size(value: Any, serialize: Serializer) -> int:
    return len(serialize(value).encode("utf-8"))


@dataclass(frozen=True, slots=True)
class ToolResult:
    """What a tool's ``execute`` returns; field names follow pi (``details``) and MCP."""

    content: list[dict[str, Any]]
    details: Any = None
    structured_content: dict[str, Any] | None = None
    is_error: bool = False

    @property
    def text(self) -> str:
        """The text of the first text block ("" when there is none)."""
        for block in self.content:
            if block.get("type") == "text":
                return str(block.get("text", ""))
        return ""

    def to_mcp(self) -> dict[str, Any]:
        """The MCP ``CallToolResult`` wire shape."""
        out: dict[str, Any] = {"content": self.content, "isError": self.is_error}
        if self.structured_content is not None:
            out["structuredContent"] = self.structured_content
        return out


def is_output_limit(result: Mapping[str, Any]) -> bool:
    """True when ``result`` is the typed error produced for an oversized result."""
    error = result.get("error")
    return isinstance(error, Mapping) and error.get("type") == OUTPUT_LIMIT_ERROR


def tool_result(
    result: Mapping[str, Any],
    *,
    failed: bool | None = None,
    next_step: str | None = None,
) -> ToolResult:
    """Wrap a plain result dict as a bounded :class:`ToolResult`.

    ``failed`` defaults to ``result["success"] is False``; an ``output_limit`` error on either
    view also makes the result an error. ``next_step`` is appended to the ``output_limit``
    message so the caller can say what the model should do instead (e.g. which narrower call
    to make, or that a write already succeeded and must not be repeated).
    """
    structured = bound_result(result, next_step=next_step)
    text_view = bound_result(result, serialize=pretty_json, next_step=next_step)
    if failed is None:
        failed = result.get("success") is False
    is_error = failed or is_output_limit(structured) or is_output_limit(text_view)
    return ToolResult(
        content=[{"type": "text", "text": pretty_json(text_view)}],
        structured_content=structured,
        is_error=is_error,
    )


def bound_result(
    result: Mapping[str, Any],
    *,
    serialize: Serializer = compact_json,
    limit_bytes: int = OUTPUT_LIMIT_BYTES,
    max_records: int = MAX_RECORDS,
    next_step: str | None = None,
) -> dict[str, Any]:
    """Return ``result`` (a new dict) made to fit ``limit_bytes`` of ``serialize`` output."""
    return _Bounder(result, serialize, limit_bytes, next_step).run(max_records)


class _Bounder:
    """One bounding pass; ``totals`` maps each cut list to its original length."""

    def __init__(
        self, result: Mapping[str, Any], serialize: Serializer, limit_bytes: int, next_step: str | None
    ) -> None:
        self.result = result
        self.serialize = serialize
        self.limit_bytes = limit_bytes
        self.next_step = next_step
        self.totals: dict[str, int] = {}

    def run(self, max_records: int) -> dict[str, Any]:
        out = {key: value for key, value in self.result.items() if key not in _FLAG_KEYS}
        for key, value in out.items():
            if isinstance(value, list) and len(value) > max_records:
                self.totals[key] = len(value)
                out[key] = value[:max_records]
        if self.fits(out):
            return self.flagged(out)
        lists = [key for key, value in out.items() if isinstance(value, list) and value]
        lists.sort(key=lambda key: _size(out[key], self.serialize), reverse=True)
        for key in lists:
            if not self.fits({**out, key: []}, {**self.totals, key: len(self.result[key])}):
                continue  # this list is not the (only) problem; the others may be
            if _all_have_ids(out[key]):
                out = self.clip_id_records(out, key)
            else:
                shrunk, stuck_at = self.drop_tail_records(out, key)
                if shrunk is None:
                    return self.output_limit(key, stuck_at, _size(out[key][stuck_at], compact_json))
                out = shrunk
            if self.fits(out):
                return self.flagged(out)
        return self.output_limit(None, None, None)

    def flagged(self, out: dict[str, Any], totals: Mapping[str, int] | None = None) -> dict[str, Any]:
        totals = self.totals if totals is None else totals
        if not totals:
            return out
        keys = [key for key in self.result if key in totals]
        return {**out, "truncated": True, "truncatedKeys": keys, "total": totals[keys[0]]}

    def fits(self, out: dict[str, Any], totals: Mapping[str, int] | None = None) -> bool:
        return _size(self.flagged(out, totals), self.serialize) <= self.limit_bytes

    def drop_tail_records(self, out: dict[str, Any], key: str) -> tuple[dict[str, Any] | None, int]:
        """Keep the longest prefix of whole records that fits (an empty list must fit).

        Returns ``(None, i)`` when record ``i``, the first one left out, could not be shown even
        on its own: cutting it is not allowed, so the whole result becomes an error.
        """
        records: list[Any] = out[key]
        totals = {**self.totals, key: len(self.result[key])}
        kept = _largest(0, len(records), lambda n: self.fits({**out, key: records[:n]}, totals))
        if kept == len(records):
            return out, kept
        if not self.fits({**out, key: [records[kept]]}, totals):
            return None, kept
        self.totals = totals
        return {**out, key: records[:kept]}, kept

    def clip_id_records(self, out: dict[str, Any], key: str) -> dict[str, Any]:
        """Clip the text fields of id-bearing records; drop trailing ones only if needed.

        Called only when the list fits once emptied, so at worst it keeps zero records.
        """
        records: list[Mapping[str, Any]] = out[key]
        totals = {**self.totals, key: len(self.result[key])}
        longest = max((len(v) for r in records for k, v in r.items() if k != "id" and isinstance(v, str)), default=0)

        def candidate(count: int, cap: int) -> dict[str, Any]:
            return {**out, key: [_clip_record(record, cap) for record in records[:count]]}

        count = _largest(0, len(records), lambda n: self.fits(candidate(n, 0), totals))
        cap = _largest(0, longest, lambda c: self.fits(candidate(count, c), totals))
        self.totals = totals
        return candidate(count, cap)

    def output_limit(self, key: str | None, index: int | None, record_bytes: int | None) -> dict[str, Any]:
        """The typed error for a result that cannot be shown without cutting a record.

        Sizes are always compact-JSON bytes (the defined measure), so both views agree.
        """
        result, limit = self.result, self.limit_bytes
        size = _size(dict(result), compact_json)
        if key is not None and index is not None:
            why = f"Record {index} of '{key}' alone is {record_bytes:,} bytes and has no id to fetch it by."
        else:
            why = "Its fields outside the record lists are too large on their own."
        message = f"The result is {size:,} bytes, over the {limit:,}-byte limit. {why}"
        if self.next_step:
            message += f" {self.next_step}"
        error: dict[str, Any] = {
            "type": OUTPUT_LIMIT_ERROR,
            "message": message,
            "limitBytes": limit,
            "resultBytes": size,
        }
        if key is not None and index is not None:
            error["field"] = key
            error["index"] = index
            error["recordBytes"] = record_bytes
        cause = result.get("error")
        if isinstance(cause, str) and len(cause) <= _MAX_KEPT_SCALAR_CHARS:
            error["cause"] = cause
        out: dict[str, Any] = {"success": False, "error": error}
        for name, value in result.items():
            if name in ("success", "error") or name in _FLAG_KEYS:
                continue
            if isinstance(value, bool | int | float) or (
                isinstance(value, str) and len(value) <= _MAX_KEPT_SCALAR_CHARS
            ):
                out[name] = value
        if _size(out, self.serialize) > limit:
            out = {"success": False, "error": error}
        return out


def _all_have_ids(records: list[Any]) -> bool:
    return all(isinstance(record, Mapping) and "id" in record for record in records)


def _largest(lo: int, hi: int, ok: Callable[[int], bool]) -> int:
    """Largest n in [lo, hi] with ok(n), given ok(lo); every n returned was checked."""
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if ok(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


def _clip_record(record: Mapping[str, Any], cap: int) -> dict[str, Any]:
    clipped = {k: _clip_text(v, cap) if k != "id" and isinstance(v, str) else v for k, v in record.items()}
    if clipped != dict(record):
        clipped["truncated"] = True
    return clipped


def _clip_text(text: str, cap: int) -> str:
    if len(text) <= cap:
        return text
    return f"{text[:cap]}… [clipped {len(text) - cap:,} chars]"



# ----------------------------------------------------------------------------- the tool call


def aborted(signal: Any) -> bool:
    """True for an aborted pi-style signal (``.aborted``) or a set ``asyncio``/threading Event."""
    if signal is None:
        return False
    if getattr(signal, "aborted", False) is True:
        return True
    is_set = getattr(signal, "is_set", None)
    return bool(is_set()) if callable(is_set) else False


@runtime_checkable
class Tool(Protocol):
    """What every caller needs from a tool: pi's tool fields, ``output_schema`` and ``execute``.

    One protocol for every host: the MCP server lists and calls these (``McpTool`` is this
    name), the framework adapters wrap them (``PiTool`` too), and the agent host adapts them.
    :class:`ToolBase` subclasses satisfy it; so does any object with these members.
    """

    @property
    def name(self) -> str: ...
    @property
    def description(self) -> str: ...
    @property
    def parameters(self) -> dict[str, Any]:
        """The JSON Schema of the arguments (``type: object``)."""

    @property
    def output_schema(self) -> dict[str, Any]:
        """The JSON Schema of ``structured_content`` (``type: object``)."""

    async def execute(
        self,
        tool_call_id: str,
        params: Mapping[str, Any] | None,
        signal: Any = None,
        on_update: Callable[..., Any] | None = None,
        ctx: Any = None,
    ) -> ToolResult: ...


class ToolBase(abc.ABC):
    """pi's tool call, written once for every tool here (memory, recall, decay).

    ``execute`` has pi's signature — what the host, the extension API and the MCP server call —
    and hands the arguments (``{}`` when there are none) and the abort signal to :meth:`run`.
    Subclasses hold the fields a host reads (``name``, ``description``, ``parameters``,
    ``output_schema``, ``label``, ``prompt_snippet``) and implement ``run``.
    """

    async def execute(
        self,
        tool_call_id: str,
        params: Mapping[str, Any] | None,
        signal: Any = None,
        on_update: Callable[..., Any] | None = None,
        ctx: Any = None,
    ) -> ToolResult:
        """Run the tool (pi's ``execute`` signature; ``tool_call_id``, ``on_update`` and ``ctx`` are unused)."""
        return await self.run(params or {}, signal)

    @abc.abstractmethod
    async def run(self, params: Mapping[str, Any], signal: Any = None) -> ToolResult:
        """The tool's work on the call's arguments; a fixable problem is a failed result, never a raise."""
