"""The code stays lint- and type-clean: ruff over the tree, mypy --strict over the package.

These run the real tools as subprocesses (configured in pyproject.toml), so a change that adds a
lint or typing error fails the suite instead of waiting for someone to notice.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


@pytest.mark.slow
def test_ruff_is_clean() -> None:
    proc = subprocess.run([str(BIN / "ruff"), "check", "src", "tests", "bench", "scripts"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.slow
def test_mypy_strict_is_clean() -> None:
    proc = subprocess.run([str(BIN / "mypy")], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def _private_imports(path: Path, module: str) -> set[tuple[str, str]]:
    """``(module, imported.module._name)`` for each private name ``module`` takes from another
    module, by ``from m import _x`` or by ``import m`` then ``m._x``."""
    import ast

    package = module.rsplit(".", 1)[0] if path.name != "__init__.py" else module
    found: set[tuple[str, str]] = set()
    aliases: dict[str, str] = {}
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}" if base else parent
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.add((module, f"{base}.{alias.name}"))
                aliases[alias.asname or alias.name] = f"{base}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:  # ``import a.b`` binds ``a``; ``import a.b as c`` binds ``c`` to a.b
                bound = alias.name if alias.asname else alias.name.split(".")[0]
                aliases[alias.asname or bound] = bound
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases
                and node.attr.startswith("_") and not node.attr.startswith("__")
                and aliases[node.value.id].startswith("pi_memory")):
            found.add((module, f"{aliases[node.value.id]}.{node.attr}"))
    return found


def test_no_module_imports_another_modules_private_name() -> None:
    """A folder's ``__init__`` exports its public names and other modules import those; a private
    ``_name`` of another module is an internal that can change under its user (DESIGN §2)."""
    src = ROOT / "src"
    found: set[tuple[str, str]] = set()
    for path in sorted((src / "pi_memory").rglob("*.py")):
        module = ".".join(path.relative_to(src).with_suffix("").parts).removesuffix(".__init__")
        found |= _private_imports(path, module)
    assert found == set()


def test_async_tests_use_the_anyio_plugin_not_their_own_event_loop() -> None:
    """An async test is ``@pytest.mark.anyio`` (the ``anyio_backend`` fixture in tests/conftest.py
    picks asyncio, the host's loop); a sync test wrapping ``asyncio.run(go())`` hides which loop
    and fixtures it runs on. Scripts run in child processes (strings) may start their own loop."""
    import ast

    found = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        # test modules and fixtures; a seeding helper that sync code (a benchmark) also calls may run a loop
        if "node_modules" in path.parts or not (path.name.startswith("test_") or path.name == "conftest.py"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and (ast.unparse(node.func) in ("asyncio.run", "anyio.run")
                         or node.func.attr == "run_until_complete")):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []


#: Modules that need no test module of their own, and why (DESIGN §2: tests mirror src/).
NO_MIRROR: dict[str, str] = {
    "_lazy.py": "private: the lazy re-export every folder __init__ uses, run by every import of the package",
    "memory/lock.py": "a re-export of pi_memory.base.lock under an older name (tests/base/lock)",
    "memory/results.py": "a re-export of pi_memory.base.tools under an older name (tests/base/test_tools.py)",
    "host/paths.py": "a re-export of pi_memory.base.paths (tests/base/test_paths.py)",
    "session/jsjson.py": "a re-export of pi_memory.base.js (tests/base/test_js.py)",
    "base/lock/constants.py": "numbers only: the lock's timings, used by tests/base/lock",
    "base/lock/errors.py": "exception classes only (raised and asserted in tests/base/lock)",
    "session/errors.py": "exception and warning classes only (asserted in tests/session)",
    "host/events.py": "data: pi's and the guide's event names (tests/host/test_runner.py dispatches them)",
    "security/rules_c2.py": "data table: rules, exercised by tests/security over the engine",
    "security/rules_exfil.py": "data table: rules, exercised by tests/security over the engine",
    "security/rules_injection.py": "data table: rules, exercised by tests/security over the engine",
    "security/rules_persistence.py": "data table: rules, exercised by tests/security over the engine",
    "security/rules_role.py": "data table: rules, exercised by tests/security over the engine",
    "security/intent_lexicon.py": "data table: word lists for the intent check",
    "security/unicode_rules.py": "data table: code point classes for the unicode policy",
    "providers/types.py": "types only: models, options and event TypedDicts (mypy checks their use)",
    "session/entries.py": "types only: TypedDicts of pi's session lines, never validated at run time",
    "memory/backend.py": "the storage interface (Protocols and their value types); every backend runs the "
                         "shared store suite of tests/backends/storage_fixtures.py",
    "providers/_builder.py": "private to providers: the message builder behind both SDK providers' tests",
    "providers/_errors.py": "private to providers: error mapping, asserted through the providers' tests",
    "providers/_json.py": "private to providers: tolerant JSON for streamed tool arguments",
}

#: Modules still tested only through broader files (named): empty now, and it may only stay so —
#: a module added to src/ comes with tests/<folder>/test_<module>.py.
NOT_YET_MIRRORED: dict[str, str] = {}


def _unmirrored() -> set[str]:
    package = ROOT / "src" / "pi_memory"
    missing = set()
    for path in package.rglob("*.py"):
        if path.name in ("__init__.py", "__main__.py"):
            continue
        rel = path.relative_to(package)
        if not (ROOT / "tests" / rel.parent / f"test_{rel.stem}.py").exists():
            missing.add(rel.as_posix())
    return missing


def test_every_module_has_a_mirrored_test_module() -> None:
    """``src/pi_memory/<folder>/<module>.py`` is tested by ``tests/<folder>/test_<module>.py``
    (DESIGN §2), except the modules listed above with their reason."""
    missing = _unmirrored()
    assert missing - NO_MIRROR.keys() - NOT_YET_MIRRORED.keys() == set(), "add tests/<folder>/test_<module>.py"
    exists = {name for name in {**NO_MIRROR, **NOT_YET_MIRRORED} if (ROOT / "src" / "pi_memory" / name).exists()}
    assert exists - missing == set(), "these now have a mirrored test module: take them off the list"


#: Source files allowed past the size limit, and why.
LONG_FILES = {
    "security/rules_injection.py": "data table: injection rules, one entry each",
}
MAX_LINES = 450


def test_no_source_file_holds_more_than_one_pages_worth_of_concepts() -> None:
    """A module over ~450 lines has several jobs (DESIGN §8: "three mechanisms are three
    modules"); data tables excepted."""
    package = ROOT / "src" / "pi_memory"
    long = {path.relative_to(package).as_posix(): n for path in package.rglob("*.py")
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert set(long) - LONG_FILES.keys() == set(), long


#: DESIGN §2: each folder depends only on folders before it (one tier may not import another of the same tier).
LAYERS = ["base", "security", "memory", "backends", "session", "providers", "host", "recall", "extensions",
          ("integrations", "mcp", "ui"), "cli"]


def test_no_folder_imports_one_above_it() -> None:
    """Lazy imports inside functions count too: a dependency is a dependency, whenever it loads."""
    import ast

    rank = {name: i for i, tier in enumerate(LAYERS) for name in (tier if isinstance(tier, tuple) else (tier,))}
    package = ROOT / "src" / "pi_memory"
    found = []
    for path in sorted(package.rglob("*.py")):
        rel = path.relative_to(package)
        if len(rel.parts) < 2:
            continue  # pi_memory/__init__.py re-exports every folder
        folder = rel.parts[0]
        here = ["pi_memory", *rel.with_suffix("").parts]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.ImportFrom):
                names = [".".join([*here[:len(here) - node.level], *(node.module or "").split(".")]).rstrip(".")
                         if node.level else node.module or ""]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            for name in names:
                parts = name.split(".")
                if parts[0] == "pi_memory" and len(parts) > 1 and parts[1] in rank and parts[1] != folder \
                        and rank[parts[1]] >= rank[folder]:
                    found.append(f"{rel}:{node.lineno} imports {name}")
    assert found == []
