"""ModelRegistry: built-ins, settings, API keys (env, literal, !command) and provider lookup."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pi_memory.providers import (
    Context,
    ModelNotFoundError,
    ModelRegistry,
    ScriptedProvider,
    clear_command_cache,
    parse_model_ref,
    resolve_config_value,
)
from pi_memory.providers import registry as registry_module


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    clear_command_cache()


async def complete(registry: ModelRegistry, ref: str, text: str = "hi") -> dict[str, Any]:
    model = registry.resolve(ref)
    context = Context(messages=[{"role": "user", "content": text, "timestamp": 1}])
    return dict(await registry.get_provider(model).complete(model, context))


def test_parse_model_ref() -> None:
    assert parse_model_ref("openai/gpt-4.1") == ("openai", "gpt-4.1")
    assert parse_model_ref("openrouter/anthropic/claude-sonnet-4.5") == ("openrouter", "anthropic/claude-sonnet-4.5")
    assert parse_model_ref("gpt-4.1") == (None, "gpt-4.1")
    assert parse_model_ref(" ollama/qwen3:8b ") == ("ollama", "qwen3:8b")


def test_builtins() -> None:
    registry = ModelRegistry(env={})
    assert registry.provider_names == ["anthropic", "ollama", "openai", "openrouter", "scripted"]
    sonnet = registry.find("anthropic", "claude-sonnet-4-5")
    assert sonnet is not None and sonnet.api == "anthropic-messages" and sonnet.base_url == "https://api.anthropic.com"
    assert sonnet.context_window == 200_000 and sonnet.cost.input == 3 and sonnet.reasoning and sonnet.note is None
    gpt = registry.resolve("gpt-4o-mini")
    assert gpt.ref == "openai/gpt-4o-mini" and gpt.base_url == "https://api.openai.com/v1"
    ollama = registry.resolve("ollama/llama3.2")
    assert ollama.base_url == "http://localhost:11434/v1" and ollama.api == "openai-completions"
    assert registry.find("nope", "x") is None


def test_unknown_model_on_a_known_provider_gets_defaults_with_a_note() -> None:
    model = ModelRegistry(env={}).find("ollama", "qwen3:8b")
    assert model is not None and model.context_window == 128_000 and model.cost.output == 0
    assert model.note is not None and "assuming a 128000-token context window" in model.note
    assert "providers.ollama.models" in model.note


def test_unknown_provider_message_says_what_to_configure() -> None:
    with pytest.raises(ModelNotFoundError) as caught:
        ModelRegistry(env={}).resolve("lmstudio/qwen")
    text = str(caught.value)
    assert "Unknown provider 'lmstudio'" in text and '"baseUrl"' in text and "ollama" in text


def test_settings_add_providers_models_and_defaults() -> None:
    settings = {
        "defaultProvider": "vllm",
        "defaultModel": "Qwen/Qwen3-32B",
        "providers": {
            "vllm": {"api": "openai-completions", "baseUrl": "http://gpu:8000/v1", "headers": {"x-a": "1"},
                     "models": [{"id": "Qwen/Qwen3-32B", "contextWindow": 32768, "maxTokens": 4096,
                                 "cost": {"input": 0.1, "output": 0.2}, "reasoning": True, "input": ["text"],
                                 "compat": {"maxTokensField": "max_completion_tokens"}}]},
            "ollama": {"models": [{"id": "qwen3:8b", "contextWindow": 40960}]},
            "openai": {"baseUrl": "https://proxy.example/v1"},
        },
    }
    registry = ModelRegistry(settings, env={})
    assert registry.warnings == []
    default = registry.default_model()
    assert default is not None and default.ref == "vllm/Qwen/Qwen3-32B"
    assert default.context_window == 32768 and default.max_tokens == 4096 and default.reasoning
    assert default.cost.input == 0.1 and default.cost.cache_read == 0 and default.input == ("text",)
    assert default.headers == {"x-a": "1"} and default.compat == {"maxTokensField": "max_completion_tokens"}
    assert default.note is None
    qwen = registry.find("ollama", "qwen3:8b")
    assert qwen is not None and qwen.context_window == 40960 and qwen.note is None
    moved = registry.find("openai", "gpt-4.1")
    assert moved is not None and moved.base_url == "https://proxy.example/v1" and moved.cost.input == 2


def test_malformed_settings_are_warnings_not_crashes() -> None:
    registry = ModelRegistry({
        "providers": {"bad": "nope", "nourl": {"models": []}, "ollama": {"models": [{"name": "no id"}, 3]},
                      "openai": {"models": "gpt"}},
        "defaultModel": 7,
    }, env={})
    assert len(registry.warnings) == 6
    assert any('providers.nourl needs "baseUrl"' in w for w in registry.warnings)
    assert any('providers.ollama.models[0] needs an "id"' in w for w in registry.warnings)
    assert registry.default_model_id is None
    assert ModelRegistry({"providers": []}, env={}).warnings == [
        'settings "providers" must be an object of provider name → config; ignored']


def test_api_keys_from_env_literal_env_name_and_command(tmp_path: Path) -> None:
    counter = tmp_path / "count"
    settings = {"providers": {
        "lit": {"baseUrl": "http://x/v1", "apiKey": "sk-literal"},
        "named": {"baseUrl": "http://x/v1", "apiKey": "MY_KEY_VAR"},
        "cmd": {"baseUrl": "http://x/v1", "apiKey": f"!echo run >> {counter}; printf '  from-cmd\\n'"},
        "keyless": {"baseUrl": "http://x/v1"},
    }}
    env = {"OPENAI_API_KEY": "sk-env", "MY_KEY_VAR": "sk-named"}
    registry = ModelRegistry(settings, env=env)

    def key(ref: str) -> str | None:
        return registry.get_api_key(registry.resolve(ref))

    assert key("openai/gpt-4.1") == "sk-env"
    assert key("anthropic/claude-haiku-4-5") is None
    assert key("lit/m") == "sk-literal" and key("named/m") == "sk-named"
    assert key("cmd/m") == "from-cmd" and key("cmd/m") == "from-cmd"
    assert counter.read_text().count("run") == 1  # cached: the command ran once
    assert key("keyless/m") is None and key("ollama/x") is None
    assert resolve_config_value("UNSET_NAME", {}) == "UNSET_NAME"


def test_failing_or_slow_commands_give_no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    assert resolve_config_value("!exit 3") is None
    assert resolve_config_value("!true") is None  # empty output
    monkeypatch.setattr(registry_module, "_COMMAND_TIMEOUT", 0.2)
    assert resolve_config_value("!sleep 5; echo late") is None


@pytest.mark.anyio
async def test_scripted_provider_is_replaceable() -> None:
    registry = ModelRegistry(env={})
    assert (await complete(registry, "scripted/echo", "ping"))["content"][0]["text"] == "You said: ping"
    registry.set_provider("scripted", ScriptedProvider(["fixed"]))
    assert (await complete(registry, "scripted/anything"))["content"][0]["text"] == "fixed"


@pytest.mark.anyio
async def test_unknown_api_is_an_error_message() -> None:
    registry = ModelRegistry({"providers": {"g": {"api": "google-generative-ai", "baseUrl": "http://x"}}}, env={})
    message = await complete(registry, "g/gemini")
    assert message["stopReason"] == "error" and "No provider for api 'google-generative-ai'" in message["errorMessage"]


def test_default_model_follows_available_keys() -> None:
    assert ModelRegistry(env={}).default_model() is None
    found = ModelRegistry(env={"OPENAI_API_KEY": "k"}).default_model()
    assert found is not None and found.ref == "openai/gpt-4.1"
    found = ModelRegistry(env={"OPENAI_API_KEY": "k", "ANTHROPIC_API_KEY": "k"}).default_model()
    assert found is not None and found.ref == "anthropic/claude-sonnet-4-5"
    found = ModelRegistry({"defaultModel": "gpt-4o"}, env={}).default_model()
    assert found is not None and found.ref == "openai/gpt-4o"


def test_sdk_base_url_variables_move_the_builtins_and_settings_win_over_them() -> None:
    env = {"OPENAI_BASE_URL": "http://127.0.0.1:8080/v1", "ANTHROPIC_BASE_URL": "http://127.0.0.1:8081"}
    registry = ModelRegistry(env=env)
    assert registry.resolve("openai/gpt-4.1").base_url == "http://127.0.0.1:8080/v1"
    assert registry.resolve("openai/unlisted").base_url == "http://127.0.0.1:8080/v1"
    assert registry.resolve("anthropic/claude-haiku-4-5").base_url == "http://127.0.0.1:8081"
    assert registry.resolve("openrouter/x/y").base_url == "https://openrouter.ai/api/v1"  # its own endpoint
    configured = ModelRegistry({"providers": {"openai": {"baseUrl": "http://gpu:8000/v1"}}}, env=env)
    assert configured.resolve("openai/gpt-4.1").base_url == "http://gpu:8000/v1"
    configured.override("openai", base_url="http://flag:1/v1", api_key="sk-flag")
    model = configured.resolve("openai/gpt-4.1")
    assert model.base_url == "http://flag:1/v1" and configured.get_api_key(model) == "sk-flag"
