"""Start-up hygiene of the ``pi-memory`` command (what each command imports, not how long it takes;
timing lives in bench/cli_bench.py), and the plain ``status``/``read`` path of
:mod:`pi_memory.cli.entry` against the typer commands it stands in for.

Every check runs a fresh interpreter, because what matters is what a new process imports.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

HEAVY = {"anthropic", "openai", "numpy", "mcp", "tokenizers", "onnxruntime"}
# asyncio too: status reports whether dreaming can run from the settings and the model registry
# alone (pi_memory.extensions.memory.readiness), without loading the agent loop or a provider
FRAMEWORK = {"typer", "pydantic", "click", "asyncio"}

# Runs pi-memory as `python -m pi_memory.cli` (argv after --) or, with --typer, the typer app itself,
# then prints the top-level packages it imported (as JSON, on the last stderr line).
PROBE = """
import atexit, json, runpy, sys
typer_path = sys.argv[1] == "--typer"
args = sys.argv[2:]
atexit.register(lambda: print(json.dumps(sorted({m.split(".")[0] for m in sys.modules})), file=sys.stderr))
sys.argv = ["pi-memory", *args]
if typer_path:
    from pi_memory.cli.main import app
    app(prog_name="pi-memory")
else:
    runpy.run_module("pi_memory.cli", run_name="__main__")
"""


def probe(args: list[str], cwd: Path, *, typer_path: bool = False) -> tuple[int, str, str, set[str]]:
    """Exit code, stdout, stderr (without the module list) and the packages imported."""
    env = {**os.environ, "COLUMNS": "100", "TERM": "dumb"}
    done = subprocess.run([sys.executable, "-c", PROBE, "--typer" if typer_path else "--entry", *args],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    *err, modules = done.stderr.rstrip("\n").split("\n")
    return done.returncode, done.stdout, "\n".join(err), set(json.loads(modules))


def imported_by(code: str, cwd: Path) -> set[str]:
    done = subprocess.run([sys.executable, "-c", f"{code}\nimport sys, json\n"
                           "print(json.dumps(sorted(m for m in sys.modules)))"],
                          cwd=cwd, capture_output=True, text=True, timeout=120, check=True)
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


def top(modules: set[str]) -> set[str]:
    return {m.split(".")[0] for m in modules}


@pytest.fixture
def memories(_isolated_home: Path) -> Path:
    directory = _isolated_home / ".pi" / "agent" / "memories"
    directory.mkdir(parents=True)
    (directory / "MEMORY.md").write_text("Project uses pytest\n§\nTwo lines\nof [bold]markup[/bold]", encoding="utf-8")
    (directory / "USER.md").write_text("Prefers concise answers", encoding="utf-8")
    return directory


# ----------------------------------------------------------------------------- what gets imported


def test_importing_the_cli_loads_no_sdk_numpy_or_subcommand(tmp_path: Path) -> None:
    modules = imported_by("import pi_memory.cli.main", tmp_path)
    assert top(modules) & HEAVY == set()
    assert {"pi_memory.cli.chat", "pi_memory.cli.recall", "pi_memory.cli.mcp", "pi_memory.cli.dream",
            "pi_memory.cli.db", "pi_memory.host.agent", "pi_memory.recall.embedders"} & modules == set()


def test_importing_the_package_loads_only_its_front_door(tmp_path: Path) -> None:
    modules = imported_by("import pi_memory", tmp_path)
    assert {m for m in modules if m.startswith("pi_memory.")} == {"pi_memory._lazy"}
    assert top(modules) & (HEAVY | FRAMEWORK) == set()


def test_status_and_read_import_neither_sdks_nor_the_cli_framework(memories: Path) -> None:
    for args in (["status"], ["read"], ["--json", "read", "user"], ["status", "--dir", str(memories)]):
        code, _, err, modules = probe(args, memories)
        assert code == 0, err
        assert modules & (HEAVY | FRAMEWORK) == set(), args


def test_the_typer_path_of_status_loads_no_other_subcommand(memories: Path) -> None:
    code, _, err, modules = probe(["status"], memories, typer_path=True)
    assert code == 0, err
    assert modules & HEAVY == set()


def test_public_names_of_lazy_packages_all_resolve(tmp_path: Path) -> None:
    names = imported_by(
        "import importlib\n"
        "for name in ('pi_memory', 'pi_memory.memory', 'pi_memory.session', 'pi_memory.host', 'pi_memory.recall',"
        " 'pi_memory.extensions.memory', 'pi_memory.extensions.recall', 'pi_memory.extensions.decay',"
        " 'pi_memory.providers'):\n"
        "    package = importlib.import_module(name)\n"
        "    for public in package.__all__:\n"
        "        assert getattr(package, public) is not None, (name, public)\n"
        "        assert public in dir(package), (name, public)\n"
        "from pi_memory import MemoryStore, SessionManager, __version__\n"
        "from pi_memory.host import AgentSession, SessionRuntime\n"
        "assert AgentSession is SessionRuntime\n",
        tmp_path)
    assert "pi_memory.host.session_runtime" in names


def test_an_export_named_like_its_submodule_stays_the_export(tmp_path: Path) -> None:
    # extensions.memory exports the dream() function from dream.py: importing the submodule first
    # must not turn the package's `dream` into the module (it did not with eager imports).
    imported_by("import types\n"
                "import pi_memory.extensions.memory.dream as submodule\n"
                "from pi_memory.extensions.memory import dream\n"
                "assert callable(dream) and not isinstance(dream, types.ModuleType), dream\n"
                "assert submodule is dream\n", tmp_path)


def test_a_missing_name_is_an_attribute_error(tmp_path: Path) -> None:
    imported_by("import pi_memory\n"
                "try:\n    pi_memory.nope\nexcept AttributeError as exc:\n    assert 'nope' in str(exc)\n"
                "else:\n    raise SystemExit('no AttributeError')\n", tmp_path)


# ----------------------------------------------------------------------------- same answers


# One test per command line (``{mem}``: the memory directory, ``{tmp}``: the test's temp dir): each
# case is two fresh interpreters, and as separate tests they spread over the xdist workers instead
# of one test running all of them in a row.
CASES = [
    ["status"], ["read"], ["read", "user"], ["read", "memory"], ["status", "--json"], ["--json", "status"],
    ["--json", "read", "user"], ["read", "--json"], ["--dir", "{mem}", "status"],
    ["status", "--dir", "{tmp}/empty"], ["--dir", "{tmp}/empty", "read"],
    ["--memory-limit", "5000", "status"], ["--memory-limit", "10", "status"],  # 10: over budget, drift
    ["--memory-limit", "10", "read"], ["--user-limit", "3", "--json", "status"],
    ["--memory-limit", "1", "status", "--memory-limit", "4000"],  # the later option wins
    ["status", "--dir", "{tmp}/file.txt"], ["status", "--memory-limit", "0"], ["status", "--memory-limit", "x"],
    ["read", "bogus"], ["read", "user", "extra"], ["status", "extra"], ["status", "--help"], ["read", "-h"],
    ["--version"], ["status", "--dir"], ["--namespace", "n", "status"], ["status", "--dsn", "postgresql://x"],
    ["--dir={mem}", "status"],
]


@pytest.mark.parametrize("case", CASES, ids=" ".join)
def test_plain_status_and_read_answer_exactly_like_the_typer_commands(
    case: list[str], memories: Path, tmp_path: Path
) -> None:
    (tmp_path / "file.txt").write_text("x")
    args = [arg.format(mem=memories, tmp=tmp_path) for arg in case]
    fast = probe(args, memories)
    full = probe(args, memories, typer_path=True)
    assert fast[:3] == full[:3], args


@pytest.mark.parametrize("settings_text", ["", "{not json"], ids=["no-settings", "bad-settings"])
@pytest.mark.parametrize("args", [["status"], ["read", "user"], ["read"], ["--json", "status"]], ids=" ".join)
def test_what_the_plain_path_hands_over_still_matches(
    args: list[str], settings_text: str, memories: Path
) -> None:
    """Drift, invalid UTF-8 and a settings warning go to the typer commands, which explain them."""
    (memories / "USER.md").write_bytes(b"caf\xe9")  # invalid UTF-8: read warns, status reports drift
    if settings_text:
        (memories.parent / "settings.json").write_text(settings_text, encoding="utf-8")
    fast = probe(args, memories)
    full = probe(args, memories, typer_path=True)
    assert fast[:3] == full[:3], (args, settings_text)
    if args == ["read"] and not settings_text:
        assert "typer" not in fast[3]  # a clean file is still answered without typer


def test_the_console_script_runs_the_entry(memories: Path) -> None:
    pyproject = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text(encoding="utf-8"))
    assert pyproject["project"]["scripts"]["pi-memory"] == "pi_memory.cli.entry:main"
    script = Path(sys.executable).with_name("pi-memory")
    done = subprocess.run([str(script), "read", "user"], cwd=memories, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "user [1% — 23/1,375 chars]:\n1. Prefers concise answers\n"
