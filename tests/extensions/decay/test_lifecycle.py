"""The decay extension's lifecycle: it opens the recall extension's service and takes its rate from
the ``pi-memory-recall`` settings section or its own extension config."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from recall_helpers import call, make_runtime, seed, tool_results

from pi_memory.extensions.decay import decay_extension

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("where", ["settings", "config"])
async def test_the_rate_is_configurable(tmp_path: Path, _isolated_home: Path, where: str) -> None:
    url = str(tmp_path / "recall.db")
    seed(url, days_old=30)  # default rate: weight 0.93; at 0.001/h: exp(-0.72) = 0.49
    config: dict[str, Any] = {"url": url}
    decay_config = dict(config)
    if where == "settings":
        agent = _isolated_home / ".pi" / "agent"
        agent.mkdir(parents=True, exist_ok=True)
        (agent / "settings.json").write_text(json.dumps({"pi-memory-recall": {"decayRate": "0.001"}}))
    else:
        decay_config["rate"] = 0.001

    rt, _ = await make_runtime(tmp_path, [call("get_important_memories", threshold=0.0), "ok"],
                               lambda pi: decay_extension(pi, decay_config))
    await rt.prompt("What matters?")
    (result,) = tool_results(rt.session_manager)
    await rt.shutdown()
    assert result["details"]["rate"] == 0.001
    assert [m["weight"] for m in result["details"]["memories"]] == pytest.approx([math.exp(-0.72)] * 2, abs=1e-3)
