"""What every layer uses and nothing above it provides (DESIGN §2's lowest folder)."""

from __future__ import annotations

from .content import IMAGE_MARKER, content_text, searchable_text, text_values

__all__ = ["IMAGE_MARKER", "content_text", "searchable_text", "text_values"]
