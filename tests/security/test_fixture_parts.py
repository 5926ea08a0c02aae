"""Every hashed fixture set's halves are fixed by the text, not chosen after reading a verdict.

The sets written since the paraphrase set take each row's ``part`` from
:func:`fixture_sets.hashed_part`; the older sets (``hard_negatives``, ``multilingual_orders``,
``english_acts``, ``near_miss_notes``) fixed theirs by their own rule when they were written.
"""

from __future__ import annotations

import pytest

from fixture_sets import FIXTURES, fixture_rows, hashed_part

HASHED_SETS = [
    "paraphrase_attacks", "plain_orders", "persistence_acts", "composed_attacks",
    "hard_negatives_2", "hard_negatives_3", "hard_negatives_4", "hard_negatives_5", "hard_negatives_6",
    "hard_negatives_7", "hard_negatives_8", "multilingual_orders_2", "paraphrase_attacks_2",
]


@pytest.mark.parametrize("name", HASHED_SETS)
def test_each_row_is_in_the_half_its_text_hashes_to(name: str) -> None:
    rows = fixture_rows(FIXTURES / f"{name}.jsonl")
    assert rows
    wrong = [i for i, r in enumerate(rows) if r["part"] != hashed_part(r["text"])]
    assert wrong == [], f"{name}: rows {wrong[:10]} are not in their hashed half"
