"""``apiKey`` and header values in settings follow pi 1.6.0's ``resolveConfigValue`` template rule.

pi expands ``$NAME``/``${NAME}`` in exactly these values (never elsewhere in settings.json), with
``$$`` for a literal ``$``; a value naming an unset variable is unresolved (no key, no header).
The settings layer no longer expands the whole file, so the registry must do it here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pi_memory.host.settings import load_settings
from pi_memory.providers import ModelRegistry


def _settings(home: Path, providers: dict[str, object]) -> dict[str, object]:
    path = home / ".pi" / "agent" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"providers": providers}))
    return load_settings(home, project_trusted=False).merged


def test_api_key_and_headers_expand_like_pi(_isolated_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ACME_KEY", "sk-acme")
    monkeypatch.setenv("TEAM", "payments")
    monkeypatch.delenv("MISSING", raising=False)
    merged = _settings(_isolated_home, {
        "acme": {"baseUrl": "http://acme.test/v1", "apiKey": "$ACME_KEY",
                 "headers": {"x-team": "team-${TEAM}", "x-price": "$$5", "x-gone": "$MISSING"},
                 "models": [{"id": "m", "headers": {"x-model": "$TEAM"}}]},
        "literal": {"baseUrl": "http://lit.test/v1", "apiKey": "pa$$word", "models": [{"id": "m"}]},
        "unset": {"baseUrl": "http://unset.test/v1", "apiKey": "${MISSING}", "models": [{"id": "m"}]},
    })
    registry = ModelRegistry(merged)
    acme = registry.find("acme", "m")
    assert acme is not None and registry.get_api_key(acme) == "sk-acme"
    assert acme.headers == {"x-team": "team-payments", "x-price": "$5", "x-model": "payments"}
    assert [w for w in registry.warnings if "x-gone" in w and "$MISSING" in w]
    literal = registry.find("literal", "m")
    assert literal is not None and registry.get_api_key(literal) == "pa$word"
    unset = registry.find("unset", "m")
    assert unset is not None and registry.get_api_key(unset) is None
    assert "No API key for provider 'unset'" in (registry.auth_problem(unset) or "")
