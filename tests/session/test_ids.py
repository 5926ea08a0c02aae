"""Identifiers as pi 1.6.0 makes them (:mod:`pi_memory.session.ids`): 8-hex entry ids with a UUID
fallback, time-ordered UUIDv7 session ids, and the custom ids pi accepts in a file name."""

from __future__ import annotations

import re
import uuid

import pytest

from pi_memory.session.ids import assert_valid_session_id, generate_entry_id, index_key, uuidv7


def test_entry_ids_are_8_hex_and_avoid_the_ids_in_use() -> None:
    taken = {generate_entry_id(()) for _ in range(50)}
    assert all(re.fullmatch(r"[0-9a-f]{8}", entry_id) for entry_id in taken)
    assert generate_entry_id(taken) not in taken


def test_11b_collisions_retry_then_fall_back_to_a_uuid() -> None:
    class Everything:
        def __contains__(self, item: object) -> bool:
            return True

    assert re.fullmatch(r"[0-9a-f-]{36}", generate_entry_id(Everything()))


def test_session_ids_are_uuidv7_in_creation_order_with_the_given_timestamp() -> None:
    made = [uuidv7() for _ in range(200)]
    assert made == sorted(made) and len(set(made)) == 200
    parsed = uuid.UUID(made[0])
    assert parsed.version == 7 and parsed.variant == uuid.RFC_4122
    fixed = uuidv7(0x0123456789AB)
    assert fixed.replace("-", "").startswith("0123456789ab")
    with pytest.raises(ValueError):
        uuidv7(1 << 48)


@pytest.mark.parametrize("bad", ["", "../escape", "a/b", "-lead", "trail.", "sp ace"])
def test_custom_session_ids_that_cannot_be_a_file_name_part_are_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="Session id must be non-empty"):
        assert_valid_session_id(bad)
    assert_valid_session_id("my-custom_id.2")


def test_an_unhashable_id_from_a_damaged_file_gets_a_key_that_matches_no_real_id() -> None:
    odd = ["not", "an", "id"]
    assert index_key("abcd1234") == "abcd1234" and index_key(7) == 7
    assert index_key(odd) == index_key(odd) and index_key(odd) != index_key(["not", "an", "id"])
