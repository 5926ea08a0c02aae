"""``options``: the shared store options are declared once, taken before or after the command
word, and ``--base-url`` / ``--api-key`` reach the provider of ``--model``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import pytest
import typer
from typer.testing import CliRunner

from pi_memory.cli.options import Options, endpoint_overrides, store_command
from pi_memory.providers import ModelNotFoundError, ModelRegistry


def _app(seen: list[Options]) -> typer.Typer:
    app = typer.Typer()

    @app.callback()
    @store_command
    def main(ctx: typer.Context, options: Options) -> None:
        ctx.obj = options

    @app.command()
    @store_command
    def show(ctx: typer.Context, options: Options, target: str,
             verbose: Annotated[bool, typer.Option("--verbose")] = False) -> None:
        seen.append(options)

    return app


def test_the_shared_options_are_taken_on_either_side_of_the_command(tmp_path: Path) -> None:
    seen: list[Options] = []
    result = CliRunner().invoke(_app(seen), ["--dir", str(tmp_path), "--memory-limit", "10", "show", "user",
                                             "--json", "--memory-limit", "20", "--verbose"])
    assert result.exit_code == 0, result.output
    (options,) = seen
    assert options.dir == tmp_path and options.json is True
    assert options.memory_limit == 20  # after the command word wins
    assert options.user_limit is None and options.dsn is None


def test_the_command_keeps_its_own_arguments_and_options_in_help() -> None:
    result = CliRunner().invoke(_app([]), ["show", "--help"])
    assert result.exit_code == 0
    for flag in ("--dir", "--dsn", "--namespace", "--json", "--memory-limit", "--user-limit", "--verbose"):
        assert flag in result.output
    # the command's own options come after the shared ones
    assert result.output.index("--user-limit") < result.output.index("--verbose")


def test_a_limit_below_one_is_a_usage_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(_app([]), ["show", "user", "--user-limit", "0"])
    assert result.exit_code == 2


def test_endpoint_overrides_apply_to_the_provider_of_the_model() -> None:
    assert endpoint_overrides("openai/gpt-4.1-mini", None, None) is None
    configure = endpoint_overrides("local/qwen", "http://127.0.0.1:8080/v1", "sk-test")
    assert configure is not None
    registry = ModelRegistry(env={})
    configure(registry)
    config = registry.provider_config("local")
    assert config is not None and config.base_url == "http://127.0.0.1:8080/v1"
    assert registry.resolve("local/qwen").provider == "local"


def test_an_override_without_a_provider_says_what_to_add() -> None:
    configure = endpoint_overrides(None, "http://127.0.0.1:8080/v1", None)
    assert configure is not None
    with pytest.raises(ModelNotFoundError, match="--model provider/model-id"):
        configure(ModelRegistry(env={}))
