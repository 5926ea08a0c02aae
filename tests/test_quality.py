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
        if "node_modules" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and (ast.unparse(node.func) in ("asyncio.run", "anyio.run")
                         or node.func.attr == "run_until_complete")):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []
