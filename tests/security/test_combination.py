"""One reading of a written combination: a group needs one of its concepts, a veto none."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pi_memory.security.combination import compile_spec, first_holding, holds, index


def test_a_combination_needs_one_concept_of_each_group_and_none_vetoed() -> None:
    spec = compile_spec(("send", "secret|cred", "!negation|report"))
    assert spec == ((frozenset({"send"}), frozenset({"secret", "cred"})), frozenset({"negation", "report"}))
    assert holds(spec, {"send", "cred", "<url>"})
    assert not holds(spec, {"send"})  # no secret
    assert not holds(spec, {"send", "secret", "report"})  # vetoed


def test_the_first_of_several_that_holds() -> None:
    specs = [compile_spec(("a", "b")), compile_spec(("c",))]
    assert first_holding(index(specs), {"c"}) == 1
    assert first_holding(index(specs), {"a", "b", "c"}) == 0
    assert first_holding(index(specs), {"a"}) is None
    assert first_holding(index([]), {"a", "b", "c"}) is None


_CONCEPTS = st.sampled_from(["a", "b", "c", "d", "e", "f"])
_GROUP = st.builds(lambda veto, names: ("!" if veto else "") + "|".join(sorted(names)),
                   st.booleans(), st.sets(_CONCEPTS, min_size=1, max_size=3))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(_GROUP, max_size=4), max_size=8), st.sets(_CONCEPTS))
def test_the_index_finds_the_first_combination_the_plain_scan_finds(specs: list[list[str]], marks: set[str]) -> None:
    compiled = [compile_spec(s) for s in specs]
    plain = next((i for i, c in enumerate(compiled) if holds(c, marks)), None)
    assert first_holding(index(compiled), marks) == plain


def test_a_combination_of_vetoes_alone_is_always_a_candidate() -> None:
    compiled = [compile_spec(("a", "b")), compile_spec(("!c",))]
    assert first_holding(index(compiled), set()) == 1
    assert first_holding(index(compiled), {"a", "b"}) == 0
    assert first_holding(index(compiled), {"c"}) is None
