"""Property tests: random trees of appends, branches and compactions survive a reopen unchanged."""

from __future__ import annotations

import os
import tempfile
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from session_builders import asst, user

from pi_memory.session import SessionManager, jsjson

texts = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12) | st.sampled_from(
    ["é", "😀", "\u2028", "a\nb", '"\\']
)
numbers = st.floats(allow_nan=False, allow_infinity=False) | st.integers(-(2**53), 2**53)
ops = st.lists(
    st.one_of(
        st.tuples(st.just("user"), texts),
        st.tuples(st.just("assistant"), texts, numbers),
        st.tuples(st.just("custom"), st.one_of(st.none(), numbers, texts, st.lists(numbers, max_size=3))),
        st.tuples(st.just("custom_message"), texts, st.booleans()),
        st.tuples(st.just("label"), st.integers(0, 50), st.sampled_from([None, "", "L", "é"])),
        st.tuples(st.just("compaction"), st.integers(0, 50), texts),
        st.tuples(st.just("branch"), st.integers(0, 50)),
        st.tuples(st.just("branch_summary"), st.integers(-1, 50), texts),
        st.tuples(
            st.just("reset"),
        ),
        st.tuples(st.just("thinking"), st.sampled_from(["off", "high"])),
        st.tuples(st.just("model"), texts),
        st.tuples(st.just("name"), texts),
        st.tuples(st.just("system"), st.sampled_from([None, "v"])),
    ),
    min_size=1,
    max_size=25,
)


def _apply(sm: SessionManager, program: list[tuple[Any, ...]]) -> None:
    ids: list[str] = []

    def pick(i: int) -> str:
        return ids[i % len(ids)]

    for op in program:
        kind = op[0]
        if kind == "user":
            ids.append(sm.append_message(user(op[1])))
        elif kind == "assistant":
            message = asst(op[1])
            message["usage"]["cost"]["total"] = op[2]
            ids.append(sm.append_message(message))
        elif kind == "custom":
            ids.append(sm.append_custom_entry("t", op[1]))
        elif kind == "custom_message":
            ids.append(sm.append_custom_message_entry("t", op[1], op[2]))
        elif kind == "system":
            ids.append(sm.append_message({"role": "system", "content": "s", "sections": {"k": op[1]}, "timestamp": 1}))
        elif kind == "thinking":
            ids.append(sm.append_thinking_level_change(op[1]))
        elif kind == "model":
            ids.append(sm.append_model_change("p", op[1]))
        elif kind == "name":
            ids.append(sm.append_session_info(op[1]))
        elif kind == "reset":
            sm.reset_leaf()
        elif not ids:
            continue
        elif kind == "label":
            ids.append(sm.append_label_change(pick(op[1]), op[2]))
        elif kind == "compaction":
            ids.append(sm.append_compaction(op[2], pick(op[1]), 10))
        elif kind == "branch":
            sm.branch(pick(op[1]))
        elif kind == "branch_summary":
            ids.append(sm.branch_with_summary(None if op[1] < 0 else pick(op[1]), op[2]))


def _view(sm: SessionManager) -> dict[str, Any]:
    contexts = {}
    for entry in sm.get_entries():
        sm.branch(entry["id"])
        contexts[entry["id"]] = jsjson.dumps(sm.build_session_context().to_dict())
    return {
        "records": jsjson.dumps([sm.get_header(), *sm.get_entries()]),
        "contexts": contexts,
        "name": sm.get_session_name(),
        "labels": {e["id"]: sm.get_label(e["id"]) for e in sm.get_entries()},
    }


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops)
def test_random_trees_round_trip_through_the_file(program: list[tuple[Any, ...]]) -> None:
    with tempfile.TemporaryDirectory() as directory:
        sm = SessionManager.create("/proj", directory)
        _apply(sm, program)
        path = sm.get_session_file()
        assert path is not None
        conversation = any(
            e["type"] == "message" and e["message"]["role"] in ("user", "assistant") for e in sm.get_entries()
        )
        assert os.path.exists(path) == conversation  # the lazy first write
        if not conversation:
            return
        leaf = sm.get_leaf_id()
        leaf_context = jsjson.dumps(sm.build_session_context().to_dict())
        before = _view(sm)
        reopened = SessionManager.open(path)
        assert reopened.damaged_lines == []
        if leaf is not None:
            reopened.branch(leaf)
            assert jsjson.dumps(reopened.build_session_context().to_dict()) == leaf_context
        after = _view(reopened)
        assert after == before
        # the file holds exactly our serialization, one record per line
        with open(path, encoding="utf-8") as handle:
            assert handle.read() == "".join(
                jsjson.dumps(r) + "\n" for r in [reopened.get_header(), *reopened.get_entries()]
            )
