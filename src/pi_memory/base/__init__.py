"""What every layer uses, and nothing above it: JavaScript semantics, durable files, the lock, tool results."""

from pi_memory.base.js import date_parse_ms, is_js_number, iso_now, js_trim, js_truthy

__all__ = [
    "date_parse_ms",
    "is_js_number",
    "iso_now",
    "js_trim",
    "js_truthy",
]
