"""One reading of a written combination: a group needs one of its concepts, a veto none."""

from __future__ import annotations

from pi_memory.security.combination import any_holds, compile_spec, holds


def test_a_combination_needs_one_concept_of_each_group_and_none_vetoed() -> None:
    spec = compile_spec(("send", "secret|cred", "!negation|report"))
    assert spec == ((frozenset({"send"}), frozenset({"secret", "cred"})), frozenset({"negation", "report"}))
    assert holds(spec, {"send", "cred", "<url>"})
    assert not holds(spec, {"send"})  # no secret
    assert not holds(spec, {"send", "secret", "report"})  # vetoed


def test_any_of_several() -> None:
    specs = [compile_spec(("a", "b")), compile_spec(("c",))]
    assert any_holds(specs, {"c"})
    assert not any_holds(specs, {"a"})
    assert not any_holds([], {"a", "b", "c"})
