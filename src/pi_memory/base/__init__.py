"""What every layer uses, and nothing above it: JavaScript semantics, durable files, the lock, tool results."""

from pi_memory.base.js import date_parse_ms, is_js_number, iso_now, js_trim, js_truthy
from pi_memory.base.tools import (
    MAX_RECORDS,
    OUTPUT_LIMIT_BYTES,
    TRUNCATION_SCHEMA,
    ToolBase,
    ToolResult,
    aborted,
    bound_result,
    compact_json,
    is_output_limit,
    tool_result,
)

__all__ = [
    "MAX_RECORDS",
    "OUTPUT_LIMIT_BYTES",
    "TRUNCATION_SCHEMA",
    "ToolBase",
    "ToolResult",
    "aborted",
    "bound_result",
    "compact_json",
    "date_parse_ms",
    "is_js_number",
    "is_output_limit",
    "iso_now",
    "js_trim",
    "js_truthy",
    "tool_result",
]
