"""Run a bench script with a candidate intent model in place of the shipped one (benches only).

The scanner reads its weights from the package (``intent.load_model``); this swaps that loader
for one returning the model in ``MODEL`` for this process alone, then runs ``SCRIPT`` with the
rest of the arguments, so a model written to /tmp by ``intent_train.py --out`` can be scored by
the probe benches without replacing ``intent_model.json``::

    .venv/bin/python bench/with_model.py /tmp/model.json bench/intent_probe.py [ARGS ...]
"""

from __future__ import annotations

import json
import runpy
import sys
from collections.abc import Callable
from pathlib import Path

from pi_memory.security import intent


def use_model(path: Path) -> intent.Model:
    """Make ``intent.load_model`` return the model stored at ``path`` (this process only)."""
    model = intent.model_from_dict(json.loads(path.read_text("utf-8")))
    loader: Callable[[], intent.Model | None] = lambda: model  # noqa: E731
    intent.load_model = loader  # type: ignore[assignment]
    return model


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) < 2:
        raise SystemExit(__doc__)
    use_model(Path(args[0]))
    sys.argv = [args[1], *args[2:]]
    sys.path.insert(0, str(Path(args[1]).resolve().parent))
    runpy.run_path(args[1], run_name="__main__")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
