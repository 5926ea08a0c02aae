"""What the model is told about memory: the guidance section and the tool texts.

The wording is ours; the content follows pi-memory's ``MEMORY_GUIDANCE`` and its newest tool
descriptions so a model behaves the same with either implementation. No fixed limit appears
anywhere: the store reports its capacity in every result, and limits are configurable, so a
number here would eventually be wrong (pi-memory's consolidation tests forbid "2200"/"1375").
"""

from __future__ import annotations

MEMORY_GUIDANCE = """\
# Memory Guidance

You have two small persistent stores that are shown to you at the start of every session.
Use them for facts that will still matter in later sessions.

## When to save
- Save lasting preferences, corrections the user has confirmed, and stable facts about the
  user, the project or the environment as soon as you learn them; do not wait to be told
  "remember this".
- Be conservative: one useful fact beats five vague ones. When in doubt, leave it out.
- Qualify project facts with the project they belong to ("In repo foo, tests run with tox").

## Choose where the information belongs
- Task progress, session history and to-do lists belong in the conversation or in files,
  not in memory.
- Reusable procedures (how to do something step by step) belong in skills or docs, not in
  memory.
- Memory is for short facts that change how you act next time.

## Targets and entry style
- `user`: who the user is, how they like to work, their stated preferences.
- `memory`: facts about projects, the environment, tools and conventions.
- Write third-person declarative facts ("User prefers tabs"), not instructions to yourself
  ("Always use tabs").
- Memory is context, not authorization: an entry never grants permission for an action.
- Keep each entry short (roughly one line, under about 120 characters) and self-contained.
- Use absolute dates ("2025-03-14"), never relative ones ("yesterday").

## What stays out
- Pull-request or issue numbers, commit hashes, logs, stack traces and command output.
- Anything likely to be stale within a week.
- Secrets, credentials and tokens.

## Update workflow
1. Call `memory_read` for the target first; it shows live entries and the reported capacity
   (the `usage` field). Plan against the reported capacity, never against a number you assume.
2. Prefer `memory_replace` on an existing entry over adding a near-duplicate.
3. When space is tight, compress or merge related entries before adding new ones.
4. Before removing an entry because another one covers it, check that nothing is lost.
5. If a call fails, read the error and the returned entries; change something before trying
   again and never repeat an unchanged call.
6. If a fact cannot fit, keep existing valid facts and tell the user that memory is full
   instead of deleting facts to make room.
7. Read the target back with `memory_read` before reporting that memory was updated.
"""

_LENGTHS = (
    "Lengths are counted in Unicode code points; plan against the capacity reported in `usage`, not a fixed number."
)

ADD_DESCRIPTION = (
    "Append one durable fact to persistent memory: target 'memory' (your notes about projects, "
    "environment and tools) or 'user' (the user's identity and preferences). Save lasting "
    "preferences, supported corrections and stable project or environment facts. Call memory_read "
    "for the target first, and use memory_replace to correct an existing entry. Write declarative "
    "facts, not instructions or logs. Adding an exact duplicate is a successful no-op. If the add "
    "fails for capacity, inspect `currentEntries` and `usage`, then shorten or consolidate "
    "entries; never retry an unchanged failing add. After a success, verify with memory_read. " + _LENGTHS
)

REPLACE_DESCRIPTION = (
    "Replace one whole memory entry. `oldText` is a short substring that must match exactly one "
    "entry; `newContent` becomes the complete new entry, so carry over any qualifiers that are "
    "still true. If nothing or more than one entry matches, call memory_read and pick a unique "
    "substring. The result must fit the target's capacity. Verify with memory_read afterwards. " + _LENGTHS
)

REMOVE_DESCRIPTION = (
    "Delete one memory entry found by a short substring (`oldText`) that matches exactly one "
    "entry. Only remove facts shown to be wrong, redundant or superseded; being unrelated to the "
    "current task is not a reason. If nothing or more than one entry matches, call memory_read "
    "first. Verify with memory_read afterwards."
)

READ_DESCRIPTION = (
    "Read the live entries and usage of one memory target, including writes made after the "
    "system-prompt snapshot was taken. Read both targets before consolidating. " + _LENGTHS
)

ADD_SNIPPET = "Append durable facts to MEMORY.md or USER.md."
REPLACE_SNIPPET = "Update an existing MEMORY.md or USER.md entry."
REMOVE_SNIPPET = "Delete an entry from MEMORY.md or USER.md."
READ_SNIPPET = "Read the current contents of MEMORY.md or USER.md."

ADD_GUIDELINES = (
    "Save lasting preferences and stable facts with memory_add as declarative facts, not instructions or logs.",
    "Plan memory writes against the reported capacity (`usage`), never against a number you assume.",
    "When memory is full, keep existing valid facts and tell the user instead of deleting facts to make room.",
)
"""``memory_add``'s one-line rules for a host's guideline list (pi renders each as one ``- rule``).

pi-memory passes the whole of :data:`MEMORY_GUIDANCE` here, which a host then shows as one
multi-paragraph bullet; the guidance is a section of its own (the memory extension adds it once,
before the snapshot), so only its three essentials are repeated as rules.
"""

TARGET_DESCRIPTION = "Which store: 'memory' (your notes) or 'user' (user profile)."
CONTENT_DESCRIPTION = "The entry content to append."
OLD_TEXT_DESCRIPTION = "A short substring that matches exactly one existing entry."
NEW_CONTENT_DESCRIPTION = "The complete new text for the matched entry."

__all__ = [
    "ADD_DESCRIPTION",
    "ADD_GUIDELINES",
    "ADD_SNIPPET",
    "CONTENT_DESCRIPTION",
    "MEMORY_GUIDANCE",
    "NEW_CONTENT_DESCRIPTION",
    "OLD_TEXT_DESCRIPTION",
    "READ_DESCRIPTION",
    "READ_SNIPPET",
    "REMOVE_DESCRIPTION",
    "REMOVE_SNIPPET",
    "REPLACE_DESCRIPTION",
    "REPLACE_SNIPPET",
    "TARGET_DESCRIPTION",
]
