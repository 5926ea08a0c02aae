"""What every layer uses, and nothing above it: JavaScript semantics (:mod:`.js`), durable files
(:mod:`.fs`), the proper-lockfile lock (:mod:`.lock`) and the tool call and its bounded result
(:mod:`.tools`), and message content as text (:mod:`.content`)."""

from pi_memory.base import content, fs, js, lock, paths, tools
from pi_memory.base.content import IMAGE_MARKER, content_text, searchable_text, text_values
from pi_memory.base.fs import atomic_write, atomic_write_text, fsync_dir
from pi_memory.base.js import date_parse_ms, is_js_number, iso_now, js_trim, js_truthy
from pi_memory.base.lock import LockBlocked, LockBusy, LockCompromised, file_lock, lock_dir_for
from pi_memory.base.tools import Tool, ToolBase, ToolResult, aborted, bound_result, tool_result

__all__ = [
    "IMAGE_MARKER",
    "LockBlocked",
    "LockBusy",
    "LockCompromised",
    "Tool",
    "ToolBase",
    "ToolResult",
    "aborted",
    "atomic_write",
    "atomic_write_text",
    "bound_result",
    "content",
    "content_text",
    "date_parse_ms",
    "file_lock",
    "fs",
    "fsync_dir",
    "is_js_number",
    "iso_now",
    "js",
    "js_trim",
    "js_truthy",
    "lock",
    "lock_dir_for",
    "paths",
    "searchable_text",
    "text_values",
    "tool_result",
    "tools",
]
