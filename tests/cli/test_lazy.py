"""Subcommands imported only when they run or help lists them (:mod:`pi_memory.cli.lazy`): running
another command imports nothing, and a lazy one behaves exactly as a registered command."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from pi_memory.cli.lazy import command_group, lazy_group

LATE = textwrap.dedent('''
    import typer
    LOADS = []
    LOADS.append("imported")

    def greet(name: str = typer.Option("world", "--name")) -> None:
        """Say hello."""
        print(f"hello {name}")

    tools = typer.Typer(help="More tools.")

    @tools.command("count")
    def count(n: int) -> None:
        print(list(range(n)))
''')


@pytest.fixture
def late_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    (tmp_path / "pi_memory_late_cmds.py").write_text(LATE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "pi_memory_late_cmds", raising=False)
    return "pi_memory_late_cmds"


def _demo_app(late_module: str) -> typer.Typer:
    """A group with one registered command (``now``) and two lazy ones from ``late_module``."""
    app = command_group("demo", "A demo.", cls=lazy_group({"greet": f"{late_module}:greet",
                                                            "tools": f"{late_module}:tools"}))

    @app.callback()
    def main() -> None:
        """A demo group."""

    @app.command("now")
    def now() -> None:
        print("registered")

    return app


def test_another_command_imports_nothing_and_help_shows_the_lazy_ones(late_module: str) -> None:
    app = _demo_app(late_module)

    assert CliRunner().invoke(app, ["now"]).output == "registered\n" and late_module not in sys.modules
    result = CliRunner().invoke(app, ["--help"])
    assert result.exit_code == 0 and "Say hello." in result.output and "More tools." in result.output
    assert result.output.index("now") < result.output.index("greet")  # registered ones first


def test_a_lazy_command_or_sub_app_runs_as_if_registered(late_module: str) -> None:
    app = _demo_app(late_module)

    assert CliRunner().invoke(app, ["greet", "--name", "pi"]).output == "hello pi\n"
    assert CliRunner().invoke(app, ["tools", "count", "3"]).output == "[0, 1, 2]\n"
    assert sys.modules[late_module].LOADS == ["imported"]
    bad = CliRunner().invoke(app, ["greet", "--nmae", "x"])
    assert bad.exit_code == 2 and "No such option" in bad.output
    assert isinstance(app, typer.Typer)
