"""JSON exactly as JavaScript writes and reads it (``JSON.stringify`` / ``JSON.parse``).

Kept under this name for code that imports ``pi_memory.session.jsjson``; the implementation is
:mod:`pi_memory.base.js`.
"""

from pi_memory.base.js import dumps, js_number, loads, scan_value

__all__ = ["dumps", "js_number", "loads", "scan_value"]
