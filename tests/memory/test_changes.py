"""What each write does to the entries (pi_memory.memory.changes), without storage."""

from __future__ import annotations

from pi_memory.memory.changes import add_entry, edit_entry, find_one, remove_entry, replace_entry, set_all


def test_find_one_prefers_an_exact_match_and_lists_ambiguity() -> None:
    entries = ["alpha", "alphabet", "beta"]
    assert find_one(entries, "alpha") == 0
    assert find_one(entries, "eta") == 2
    many = find_one(["one a", "two a"], "a")
    assert isinstance(many, dict) and many["matches"] == ["one a", "two a"]
    assert find_one(entries, "zzz") == {"success": False, "error": "No entry matched 'zzz'."}


def test_each_change_returns_the_new_entries_and_its_result_keys() -> None:
    assert add_entry(["a"], 100, "b") == (["a", "b"], {})
    assert replace_entry(["a1", "b"], 100, "a", "b") == (["b"], {"replacedEntry": "a1"})
    assert remove_entry(["a", "b"], 100, "b") == (["a"], {"removedEntry": "b"})
    assert set_all(["old"], 100, ["x", "y"]) == (["x", "y"], {})
    assert edit_entry(["say hi", "b"], 100, "hi", "bye", "MEMORY.md") == (["say bye", "b"], {"editedEntry": "say bye"})
    assert edit_entry(["gone", "b"], 100, "gone", "", "MEMORY.md") == (["b"], {"editedEntry": ""})


def test_a_change_over_the_limit_shows_what_is_stored() -> None:
    over = add_entry(["aaaa"], 6, "bbbb")
    assert isinstance(over, dict) and over["currentEntries"] == ["aaaa"] and over["usage"] == "4/6"
    spans = edit_entry(["one", "two"], 100, "one\n§\ntwo", "x", "MEMORY.md")
    assert isinstance(spans, dict) and "spans more than one entry of MEMORY.md" in spans["error"]
