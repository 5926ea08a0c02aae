"""Message content → text: the one place that reads the text out of a message's ``content``.

A message's ``content`` is a string or a list of blocks (``text``, ``image``, ``thinking``,
``toolCall``). Every reader takes the text blocks in order and leaves thinking and tool calls out
(thinking is not what was said; tool calls are arguments, not prose). Where readers differ, the
difference is deliberate and has its own name:

- :func:`content_text` — what a model is sent or said: string texts only, joined by ``separator``.
- :func:`searchable_text` — what recall indexes: an image is kept as an ``[image]`` marker (a
  hit should show that a picture was there) and empty texts add no blank lines.
- :func:`text_values` — the raw ``text`` of every text block, for readers that must turn odd
  values into strings exactly as JavaScript's ``Array.join`` does (the session layer, which
  mirrors pi's listing and system-message replay).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Final

__all__ = ["IMAGE_MARKER", "content_text", "searchable_text", "text_values"]

IMAGE_MARKER: Final = "[image]"
"""What :func:`searchable_text` writes where a message held an image."""


def text_values(content: Any) -> list[Any]:
    """The ``text`` of each text block of a block list, as stored (``None`` when absent)."""
    if not isinstance(content, list):
        return []
    return [block.get("text") for block in content if isinstance(block, Mapping) and block.get("type") == "text"]


def _parts(content: list[Any], image_marker: str | None) -> Iterator[str]:
    for block in content:
        if not isinstance(block, Mapping):
            continue
        kind = block.get("type")
        if kind == "text":
            text = block.get("text")
            if isinstance(text, str):
                yield text
        elif kind == "image" and image_marker is not None:
            yield image_marker


def content_text(content: Any, separator: str = "\n") -> str:
    """The text of a string or a list of blocks: text blocks joined, everything else left out."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    return separator.join(_parts(content, None))


def searchable_text(content: Any) -> str:
    """Text to index for search: text blocks and an image marker per image, non-empty parts only."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    return "\n".join(part for part in _parts(content, IMAGE_MARKER) if part)
