"""The learned weights of the intent layer: their shape (:class:`Model`) and how the shipped ones are read.

``intent`` scores a line's concepts with them; ``bench/intent_train.py`` writes them and
``bench/with_model.py`` swaps them in for a run.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from functools import cache

__all__ = ["Model", "load_model", "model_from_dict"]


@dataclass(frozen=True)
class Model:
    classes: tuple[str, ...]  # classes[0] is "benign"
    bias: tuple[float, ...]
    weights: dict[str, tuple[float, ...]]
    threshold: float
    # The verdict of each set of concepts seen: lines repeat the same few sets (bounded memo).
    verdicts: dict[tuple[frozenset[str], float], object] = field(default_factory=dict, compare=False, repr=False)


def model_from_dict(data: dict[str, object]) -> Model:
    weights = data["weights"]
    assert isinstance(weights, dict)
    return Model(
        classes=tuple(data["classes"]),  # type: ignore[arg-type]
        bias=tuple(data["bias"]),  # type: ignore[arg-type]
        weights={k: tuple(v) for k, v in weights.items()},
        threshold=float(data["threshold"]),  # type: ignore[arg-type]
    )


@cache
def load_model() -> Model | None:
    """The shipped model, or ``None`` when the package was built without one."""
    try:
        raw = _model_text()
    except (FileNotFoundError, OSError):
        return None
    return model_from_dict(json.loads(raw))


def _model_text() -> str:
    """The shipped weights' JSON: read beside this module when the package is a directory (no
    ``importlib.resources`` import, which pulls in ``pathlib``, ``tempfile`` and ``shutil``), else
    through ``importlib.resources`` (a zipped package)."""
    path = os.path.join(os.path.dirname(__file__), "intent_model.json")
    if os.path.isfile(path):
        with open(path, encoding="utf-8") as f:
            return f.read()
    from importlib import resources

    return resources.files("pi_memory.security").joinpath("intent_model.json").read_text("utf-8")
