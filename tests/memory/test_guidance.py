"""The guidance section and tool texts the model sees (pi-memory §3.1, §5.5)."""

from __future__ import annotations

import pytest

from pi_memory.memory import guidance
from pi_memory.memory.guidance import MEMORY_GUIDANCE


@pytest.mark.parametrize("phrase", ["declarative facts", "reported capacity", "keep existing valid facts"])
def test_guidance_has_required_phrases(phrase: str) -> None:
    assert phrase in MEMORY_GUIDANCE


@pytest.mark.parametrize("forbidden", ["2200", "2,200", "1375", "1,375", "ZERO information loss"])
def test_guidance_has_no_fixed_limits(forbidden: str) -> None:
    texts = [
        MEMORY_GUIDANCE,
        guidance.ADD_DESCRIPTION,
        guidance.REPLACE_DESCRIPTION,
        guidance.READ_DESCRIPTION,
    ]
    assert all(forbidden not in text for text in texts)


def test_guidance_sections_in_order() -> None:
    headings = [line for line in MEMORY_GUIDANCE.splitlines() if line.startswith("#")]
    assert headings == [
        "# Memory Guidance",
        "## When to save",
        "## Choose where the information belongs",
        "## Targets and entry style",
        "## What stays out",
        "## Update workflow",
    ]


def test_prompt_snippets_are_upstreams() -> None:
    assert guidance.ADD_SNIPPET == "Append durable facts to MEMORY.md or USER.md."
    assert guidance.REPLACE_SNIPPET == "Update an existing MEMORY.md or USER.md entry."
    assert guidance.REMOVE_SNIPPET == "Delete an entry from MEMORY.md or USER.md."
    assert guidance.READ_SNIPPET == "Read the current contents of MEMORY.md or USER.md."


@pytest.mark.parametrize("text", [guidance.ADD_DESCRIPTION, guidance.REPLACE_DESCRIPTION, guidance.READ_DESCRIPTION])
def test_descriptions_explain_lengths_and_capacity(text: str) -> None:
    assert "Unicode code points" in text
    assert "capacity" in text


def test_add_description_covers_the_newest_gist() -> None:
    text = guidance.ADD_DESCRIPTION
    for needle in [
        "memory_read",
        "memory_replace",
        "declarative facts",
        "duplicate",
        "currentEntries",
        "never retry",
    ]:
        assert needle in text
