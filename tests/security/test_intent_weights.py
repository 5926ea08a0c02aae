"""The intent layer's weights: their shape and how the shipped ones are read (``intent_weights``)."""

from __future__ import annotations

from pi_memory.security import intent
from pi_memory.security.intent_weights import load_model, model_from_dict


def test_the_shipped_weights_give_every_class_a_weight_and_benign_comes_first() -> None:
    model = load_model()
    assert model is not None and model.classes[0] == "benign" and "persistence" in model.classes
    assert len(model.bias) == len(model.classes) and 0.0 < model.threshold < 1.0
    assert model.weights and all(len(w) == len(model.classes) for w in model.weights.values())
    assert intent.load_model() is model  # the scanner reads the same weights


def test_a_model_is_read_from_its_dictionary() -> None:
    model = model_from_dict({"classes": ["benign", "c2"], "bias": [0.5, -0.5],
                             "weights": {"l:channel": [-1.0, 2.0]}, "threshold": "0.3"})
    assert model.classes == ("benign", "c2") and model.bias == (0.5, -0.5)
    assert model.weights == {"l:channel": (-1.0, 2.0)} and model.threshold == 0.3
    assert model.verdicts == {}
