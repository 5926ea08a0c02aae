"""Which models exist, where they live, and how to authenticate: built-ins plus settings.

Settings use pi's spelling::

    {"defaultProvider": "ollama", "defaultModel": "qwen3:8b",
     "providers": {"ollama": {"models": [{"id": "qwen3:8b", "contextWindow": 32768}]},
                   "vllm": {"api": "openai-completions", "baseUrl": "http://gpu:8000/v1",
                            "apiKey": "VLLM_KEY", "models": [{"id": "Qwen/Qwen3-32B"}]}}}

The built-in ``openai`` and ``anthropic`` providers honour ``OPENAI_BASE_URL`` and
``ANTHROPIC_BASE_URL``, the SDKs' own convention (a settings ``baseUrl`` wins over them, and a
command line's ``--base-url`` over both: see :meth:`ModelRegistry.override`).

An ``apiKey`` value is resolved like pi 1.6.0's ``resolveConfigValue``: ``"!cmd"`` runs a shell
command and uses its trimmed stdout (cached per process, 10 s timeout); otherwise ``$NAME`` and
``${NAME}`` are expanded (``$$`` is a literal ``$``; a value naming an unset variable gives no key)
— and, as before, a bare name of a set environment variable uses that variable. Header values
expand the same ``$NAME`` templates (never commands). Malformed settings entries are
skipped with a note in :attr:`ModelRegistry.warnings`, never an exception.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Final

from pi_memory.base.settings import expand_env_template

from .types import ANTHROPIC_MESSAGES_API, OPENAI_COMPLETIONS_API, SCRIPTED_API, Model, ModelCost

if TYPE_CHECKING:
    from .base import Provider

__all__ = [
    "ModelNotFoundError",
    "ModelRegistry",
    "ProviderConfig",
    "clear_command_cache",
    "parse_model_ref",
    "resolve_config_value",
]

_COMMAND_TIMEOUT: Final = 10.0
_command_cache: dict[str, str | None] = {}
_DEFAULT_WINDOW: Final = {OPENAI_COMPLETIONS_API: 128_000, ANTHROPIC_MESSAGES_API: 200_000}


class ModelNotFoundError(LookupError):
    """A ``--model``/settings reference that names no known provider or model; the message says
    what to add to settings."""


def clear_command_cache() -> None:
    """Forget ``!command`` results (tests; or after rotating a key)."""
    _command_cache.clear()


def _run_command(command: str) -> str | None:
    if command not in _command_cache:
        try:
            done = subprocess.run(command, shell=True, capture_output=True, text=True,
                                  timeout=_COMMAND_TIMEOUT, stdin=subprocess.DEVNULL, check=False)
            value = done.stdout.strip() if done.returncode == 0 else ""
        except (OSError, subprocess.TimeoutExpired):
            value = ""
        _command_cache[command] = value or None
    return _command_cache[command]


def resolve_config_value(value: str, env: Mapping[str, str] | None = None) -> str | None:
    """``!cmd`` → the command's stdout; a set environment variable's name → its value; else the
    ``$NAME`` template expanded (``None`` when it names an unset variable, as pi gives no key)."""
    if value.startswith("!"):
        return _run_command(value[1:])
    environ = os.environ if env is None else env
    if value in environ:
        return environ[value]
    return expand_env_template(value, environ).value


def parse_model_ref(ref: str) -> tuple[str | None, str]:
    """``"provider/model-id"`` → ``(provider, model_id)``; ids may contain "/" themselves
    (``openrouter/anthropic/claude-sonnet-4.5``). Without a slash the provider is None."""
    provider, sep, model_id = ref.strip().partition("/")
    return (provider, model_id) if sep and provider and model_id else (None, ref.strip())


@dataclass(slots=True)
class ProviderConfig:
    """One provider: wire API, endpoint, credentials and known models."""

    name: str
    api: str
    base_url: str
    api_key: str | None = None  # a settings value, resolved by resolve_config_value
    env_key: str | None = None  # the conventional environment variable
    env_base_url: str | None = None  # the SDK's base-URL environment variable (OPENAI_BASE_URL)
    requires_key: bool = True
    headers: dict[str, str] = field(default_factory=dict)
    models: dict[str, Model] = field(default_factory=dict)


def _m(provider: str, api: str, base_url: str, model_id: str, name: str, window: int, max_tokens: int,
       cost: tuple[float, float, float, float], reasoning: bool = False) -> Model:
    return Model(id=model_id, name=name, api=api, provider=provider, base_url=base_url, context_window=window,
                 max_tokens=max_tokens, cost=ModelCost(*cost), reasoning=reasoning)


_OPENAI_URL: Final = "https://api.openai.com/v1"
_ANTHROPIC_URL: Final = "https://api.anthropic.com"


def _builtins(env: Mapping[str, str]) -> dict[str, ProviderConfig]:
    oa, an = OPENAI_COMPLETIONS_API, ANTHROPIC_MESSAGES_API
    openai_models = [
        _m("openai", oa, _OPENAI_URL, "gpt-4.1", "GPT-4.1", 1_047_576, 32_768, (2, 8, 0.5, 0)),
        _m("openai", oa, _OPENAI_URL, "gpt-4.1-mini", "GPT-4.1 mini", 1_047_576, 32_768, (0.4, 1.6, 0.1, 0)),
        _m("openai", oa, _OPENAI_URL, "gpt-4.1-nano", "GPT-4.1 nano", 1_047_576, 32_768, (0.1, 0.4, 0.025, 0)),
        _m("openai", oa, _OPENAI_URL, "gpt-4o", "GPT-4o", 128_000, 16_384, (2.5, 10, 1.25, 0)),
        _m("openai", oa, _OPENAI_URL, "gpt-4o-mini", "GPT-4o mini", 128_000, 16_384, (0.15, 0.6, 0.075, 0)),
        _m("openai", oa, _OPENAI_URL, "gpt-5", "GPT-5", 400_000, 128_000, (1.25, 10, 0.125, 0), True),
        _m("openai", oa, _OPENAI_URL, "gpt-5-mini", "GPT-5 mini", 400_000, 128_000, (0.25, 2, 0.025, 0), True),
        _m("openai", oa, _OPENAI_URL, "o4-mini", "o4-mini", 200_000, 100_000, (1.1, 4.4, 0.275, 0), True),
    ]
    anthropic_models = [
        _m("anthropic", an, _ANTHROPIC_URL, "claude-sonnet-4-5", "Claude Sonnet 4.5", 200_000, 64_000,
           (3, 15, 0.3, 3.75), True),
        _m("anthropic", an, _ANTHROPIC_URL, "claude-haiku-4-5", "Claude Haiku 4.5", 200_000, 64_000,
           (1, 5, 0.1, 1.25), True),
        _m("anthropic", an, _ANTHROPIC_URL, "claude-opus-4-5", "Claude Opus 4.5", 200_000, 64_000,
           (5, 25, 0.5, 6.25), True),
    ]
    scripted = Model(id="echo", name="Scripted echo", api=SCRIPTED_API, provider="scripted", base_url="")
    configs = {
        "openai": ProviderConfig("openai", oa, _OPENAI_URL, env_key="OPENAI_API_KEY", env_base_url="OPENAI_BASE_URL",
                                 models={m.id: m for m in openai_models}),
        "anthropic": ProviderConfig("anthropic", an, _ANTHROPIC_URL, env_key="ANTHROPIC_API_KEY",
                                    env_base_url="ANTHROPIC_BASE_URL", models={m.id: m for m in anthropic_models}),
        "ollama": ProviderConfig("ollama", oa, "http://localhost:11434/v1", requires_key=False),
        "openrouter": ProviderConfig("openrouter", oa, "https://openrouter.ai/api/v1", env_key="OPENROUTER_API_KEY"),
        "scripted": ProviderConfig("scripted", SCRIPTED_API, "", requires_key=False, models={"echo": scripted}),
    }
    for config in configs.values():
        moved = env.get(config.env_base_url, "").strip() if config.env_base_url else ""
        if moved:
            _move(config, moved)
    return configs


def _move(config: ProviderConfig, base_url: str) -> None:
    """Point ``config`` and its models at ``base_url`` (models keep their own headers)."""
    config.base_url = base_url
    for existing in list(config.models.values()):
        config.models[existing.id] = replace(existing, base_url=base_url, api=config.api,
                                             headers={**config.headers, **existing.headers})


def _number(raw: Mapping[str, Any], key: str, default: float) -> float:
    value = raw.get(key, default)
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else default


class ModelRegistry:
    """Models by provider, API keys, and the provider object that serves each API."""

    def __init__(self, settings: Mapping[str, Any] | None = None, *, env: Mapping[str, str] | None = None) -> None:
        self._env = env
        self.warnings: list[str] = []
        self._configs = _builtins(os.environ if env is None else env)
        self._providers: dict[str, Provider] = {}  # built-in providers are created on first use
        self.default_provider: str | None = None
        self.default_model_id: str | None = None
        if settings:
            self._load(settings)

    # --- settings ----------------------------------------------------------------------------

    def _warn(self, text: str) -> None:
        self.warnings.append(text)

    def _headers(self, raw: Mapping[str, Any], where: str) -> dict[str, str]:
        """Header values with ``$NAME`` expanded as pi expands them; one naming an unset variable
        is left out (pi's ``resolveHeaders``) and noted in :attr:`warnings`."""
        environ = os.environ if self._env is None else self._env
        headers: dict[str, str] = {}
        for key, value in raw.items():
            expanded = expand_env_template(str(value), environ)
            if expanded.value is None:
                names = ", ".join(f"${name}" for name in expanded.missing)
                self._warn(f"{where}.{key} names {names}, which is not set; the header is left out "
                           "(write $$ for a literal $)")
            else:
                headers[str(key)] = expanded.value
        return headers

    def _load(self, settings: Mapping[str, Any]) -> None:
        providers = settings.get("providers", {})
        if not isinstance(providers, Mapping):
            self._warn('settings "providers" must be an object of provider name → config; ignored')
            providers = {}
        for name, raw in providers.items():
            if not isinstance(raw, Mapping):
                self._warn(f'settings providers.{name} must be an object; ignored')
                continue
            self._load_provider(str(name), raw)
        for key, attr in (("defaultProvider", "default_provider"), ("defaultModel", "default_model_id")):
            value = settings.get(key)
            if isinstance(value, str) and value:
                setattr(self, attr, value)
            elif value is not None:
                self._warn(f'settings "{key}" must be a string; ignored')

    def _load_provider(self, name: str, raw: Mapping[str, Any]) -> None:
        config = self._configs.get(name)
        if config is None:
            api, base_url = raw.get("api", OPENAI_COMPLETIONS_API), raw.get("baseUrl")
            if not isinstance(base_url, str) or not base_url:
                self._warn(f'settings providers.{name} needs "baseUrl" (e.g. "http://localhost:8000/v1"); ignored')
                return
            config = ProviderConfig(name, str(api), base_url, requires_key=False)
            self._configs[name] = config
        for key, attr in (("api", "api"), ("baseUrl", "base_url"), ("apiKey", "api_key")):
            value = raw.get(key)
            if isinstance(value, str) and value:
                setattr(config, attr, value)
            elif value is not None:
                self._warn(f'settings providers.{name}.{key} must be a non-empty string; ignored')
        headers = raw.get("headers")
        if isinstance(headers, Mapping):
            config.headers.update(self._headers(headers, f"settings providers.{name}.headers"))
        if config.api_key:
            config.requires_key = True
        _move(config, config.base_url)  # built-in models follow a moved endpoint
        models = raw.get("models", [])
        if not isinstance(models, list):
            self._warn(f'settings providers.{name}.models must be a list; ignored')
            return
        for n, entry in enumerate(models):
            model = self._model_from_settings(config, entry, n)
            if model is not None:
                config.models[model.id] = model

    def _model_from_settings(self, config: ProviderConfig, raw: Any, n: int) -> Model | None:
        where = f"settings providers.{config.name}.models[{n}]"
        if not isinstance(raw, Mapping) or not isinstance(raw.get("id"), str) or not raw["id"]:
            self._warn(f'{where} needs an "id"; ignored')
            return None
        known = config.models.get(raw["id"])
        base = known if known is not None else self._default_model(config, raw["id"])
        cost: Mapping[str, Any] = raw["cost"] if isinstance(raw.get("cost"), Mapping) else {}
        modalities = raw.get("input")
        return replace(
            base,
            name=str(raw.get("name") or base.name),
            api=str(raw.get("api") or base.api),
            context_window=int(_number(raw, "contextWindow", base.context_window)),
            max_tokens=int(_number(raw, "maxTokens", base.max_tokens)),
            cost=ModelCost(_number(cost, "input", base.cost.input), _number(cost, "output", base.cost.output),
                           _number(cost, "cacheRead", base.cost.cache_read),
                           _number(cost, "cacheWrite", base.cost.cache_write)),
            reasoning=bool(raw.get("reasoning", base.reasoning)),
            input=tuple(str(m) for m in modalities) if isinstance(modalities, list) else base.input,
            headers={**base.headers, **(self._headers(raw["headers"], f"{where}.headers")
                                        if isinstance(raw.get("headers"), Mapping) else {})},
            compat={**base.compat, **(raw["compat"] if isinstance(raw.get("compat"), Mapping) else {})},
            note=None,
        )

    def _default_model(self, config: ProviderConfig, model_id: str) -> Model:
        window = _DEFAULT_WINDOW.get(config.api, 128_000)
        return Model(id=model_id, name=model_id, api=config.api, provider=config.name, base_url=config.base_url,
                     context_window=window, headers=dict(config.headers),
                     note=(f"{config.name}/{model_id} is not a known model: assuming a {window}-token context "
                           f"window, no reasoning and no cost. Add it under providers.{config.name}.models in "
                           "settings.json with contextWindow, maxTokens and cost to change that."))

    # --- lookup ------------------------------------------------------------------------------

    @property
    def provider_names(self) -> list[str]:
        return sorted(self._configs)

    def override(self, provider: str, *, base_url: str | None = None, api_key: str | None = None) -> None:
        """A command line's ``--base-url`` / ``--api-key`` for ``provider``: they win over settings
        and environment variables, and take the same forms as ``baseUrl`` / ``apiKey`` in settings
        (an unknown provider with a base URL becomes an OpenAI-compatible one)."""
        raw = {key: value for key, value in (("baseUrl", base_url), ("apiKey", api_key)) if value}
        if raw:
            self._load_provider(provider, raw)

    def provider_config(self, name: str) -> ProviderConfig | None:
        return self._configs.get(name)

    def models(self, provider: str | None = None) -> list[Model]:
        """Known models (the built-in catalog plus settings), one provider or all."""
        names = [provider] if provider is not None else self.provider_names
        return [m for n in names if n in self._configs for m in self._configs[n].models.values()]

    def find(self, provider: str, model_id: str) -> Model | None:
        """The model, or defaults for an unlisted id on a known provider (see ``Model.note``);
        None for an unknown provider."""
        config = self._configs.get(provider)
        if config is None:
            return None
        known = config.models.get(model_id)
        if known is not None:
            return known
        if config.api == SCRIPTED_API:
            return replace(config.models["echo"], id=model_id, name=f"Scripted ({model_id})")
        return self._default_model(config, model_id)

    def resolve(self, ref: str) -> Model:
        """A ``provider/model-id`` (or bare model id) from a command line or settings.

        Raises :class:`ModelNotFoundError` with a message that says what to configure.
        """
        provider, model_id = parse_model_ref(ref)
        if provider is not None and provider in self._configs:
            model = self.find(provider, model_id)
            assert model is not None
            return model
        matches = [m for m in self.models() if m.id == ref.strip()]
        if matches:
            return matches[0]
        if provider is None and self.default_provider in self._configs:
            model = self.find(str(self.default_provider), model_id)
            if model is not None:
                return model
        name = provider or model_id
        raise ModelNotFoundError(
            f"Unknown provider {name!r} in model {ref!r}. Known providers: {', '.join(self.provider_names)}. "
            f'Use "provider/model-id", or add the provider to settings.json: '
            f'{{"providers": {{"{name}": {{"api": "openai-completions", "baseUrl": "http://host:port/v1", '
            f'"models": [{{"id": "..."}}]}}}}}}')

    def default_model(self) -> Model | None:
        """Settings' defaultProvider/defaultModel; else the first provider with a key available."""
        if self.default_provider and self.default_model_id:
            return self.find(self.default_provider, self.default_model_id)
        if self.default_model_id:
            try:
                return self.resolve(self.default_model_id)
            except ModelNotFoundError:
                return None
        for provider, model_id in (("anthropic", "claude-sonnet-4-5"), ("openai", "gpt-4.1"),
                                   ("openrouter", "anthropic/claude-sonnet-4.5")):
            model = self.find(provider, model_id)
            if model is not None and self.default_provider in (None, provider) and self.get_api_key(model):
                return model
        return None

    # --- auth and providers ------------------------------------------------------------------

    def get_api_key(self, model: Model) -> str | None:
        """The key for ``model.provider``: the settings value (resolved), else the usual env var."""
        config = self._configs.get(model.provider)
        if config is None:
            return None
        env = os.environ if self._env is None else self._env
        if config.api_key:
            return resolve_config_value(config.api_key, env)
        if config.env_key:
            return env.get(config.env_key) or None
        return None

    def auth_problem(self, model: Model) -> str | None:
        """What the user must set before ``model`` can be called, or None if nothing."""
        config = self._configs.get(model.provider)
        if config is None or not config.requires_key or self.get_api_key(model):
            return None
        if config.api_key and config.api_key.startswith("!"):
            return (f"No API key for provider {config.name!r}: the command {config.api_key[1:]!r} from "
                    f"providers.{config.name}.apiKey failed or printed nothing.")
        hint = f"set the {config.env_key} environment variable or " if config.env_key else "set "
        return f"No API key for provider {config.name!r}: {hint}providers.{config.name}.apiKey in settings.json."

    def set_provider(self, api: str, provider: Provider) -> None:
        """Serve ``api`` (e.g. "scripted") with ``provider`` — how tests install a script."""
        self._providers[api] = provider

    def get_provider(self, model: Model) -> Provider:
        """The provider for ``model.api``, filling in the API key and reporting a missing one as an
        error message (never an exception). An unknown api yields a provider that says so."""
        from .keyed import KeyedProvider

        inner = self._providers.get(model.api)
        if inner is None:
            inner = _builtin_provider(model.api)
            if inner is not None:
                self._providers[model.api] = inner
        return KeyedProvider(self, inner)


def _builtin_provider(api: str) -> Provider | None:
    """The provider class that serves ``api``, imported only now: checking settings and keys
    (``pi-memory status``) then never loads the HTTP clients and the asyncio machinery."""
    if api == OPENAI_COMPLETIONS_API:
        from .openai_compat import OpenAICompletionsProvider

        return OpenAICompletionsProvider()
    if api == ANTHROPIC_MESSAGES_API:
        from .anthropic_msgs import AnthropicMessagesProvider

        return AnthropicMessagesProvider()
    if api == SCRIPTED_API:
        from .scripted import ScriptedProvider

        return ScriptedProvider.echo()
    return None
