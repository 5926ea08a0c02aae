"""Every ```python example in README.md and docs/ runs as written (blocks whose first line is
``# doc: skip`` are illustrations only; a first line ``# doc: needs MODULE`` runs the block where
MODULE is importable — an optional extra such as ``pydantic_ai`` — and skips it elsewhere)."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
_BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
_NEEDS = re.compile(r"# doc: needs ([\w.]+)")


def _examples() -> list[tuple[str, str]]:
    found = []
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for n, match in enumerate(_BLOCK.finditer(doc.read_text(encoding="utf-8")), 1):
            code = match.group(1)
            if not code.lstrip().startswith("# doc: skip"):
                found.append((f"{doc.name}#{n}", code))
    return found


@pytest.mark.parametrize(("name", "code"), _examples(), ids=[n for n, _ in _examples()])
def test_doc_example_runs(name: str, code: str, tmp_path: Path, _isolated_home: Path) -> None:
    needs = _NEEDS.match(code.lstrip())
    if needs and importlib.util.find_spec(needs.group(1)) is None:
        pytest.skip(f"{name} needs {needs.group(1)} (an optional extra)")
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, f"{name} failed:\n{code}\n--- stderr ---\n{proc.stderr}"
    written = sorted(str(p.relative_to(_isolated_home)) for p in (_isolated_home / ".pi").rglob("*"))
    assert written == [], f"{name} wrote into the reader's ~/.pi: {written}"


def test_there_are_examples() -> None:
    assert len(_examples()) >= 4


# ----------------------------------------------------------------------------- the front door


def _leaf_commands() -> list[tuple[str, Any]]:
    """``("recall search", <command>)`` for every command ``pi-memory`` runs, from the real app."""
    from typer.main import get_command

    from pi_memory.cli.main import app

    found: list[tuple[str, Any]] = []

    def walk(prefix: str, command: Any) -> None:
        if hasattr(command, "commands"):  # a group (typer's own click, not necessarily click's classes)
            for name, sub in sorted(command.commands.items()):
                walk(f"{prefix} {name}".strip(), sub)
        else:
            found.append((prefix, command))

    walk("", get_command(app))
    return found


def _reference() -> dict[str, str]:
    """The sections of docs/cli.md's "Every command and option", by heading."""
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    part = text.split("## Every command and option", 1)[1]
    return {chunk.split("\n", 1)[0]: chunk for chunk in part.split("\n### ")[1:]}


def _section(reference: dict[str, str], top: str) -> str:
    heading = next((h for h in reference if f"`pi-memory {top}`" in h or f"`{top}`" in h), None)
    assert heading is not None, f"docs/cli.md has no section for `pi-memory {top}`"
    return reference[heading]


@pytest.mark.parametrize(("path", "command"), _leaf_commands(), ids=[p for p, _ in _leaf_commands()])
def test_cli_md_documents_every_command_and_option(path: str, command: Any) -> None:
    reference = _reference()
    top = path.split()[0]
    section = _section(reference, top)
    if " " in path:  # a subcommand: a row of its group's table
        assert re.search(rf"`{re.escape(path)}[` ]", section), f"`pi-memory {path}` is not in docs/cli.md"
    shared = next(body for heading, body in reference.items() if heading.startswith("The memory options"))
    for param in command.params:
        for flag in [*param.opts, *getattr(param, "secondary_opts", [])]:
            if flag.startswith("--") and flag != "--help":
                assert re.search(rf"`{re.escape(flag)}[` /]", section + shared), (
                    f"docs/cli.md does not document {flag} of `pi-memory {path}`")


def test_readme_names_every_command_and_links_every_doc() -> None:
    from typer.main import get_command

    from pi_memory.cli.main import app

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in get_command(app).commands:  # type: ignore[attr-defined]
        assert re.search(rf"`(pi-memory )?{re.escape(name)}[` ]", readme), f"README does not name `pi-memory {name}`"
    for doc in sorted((ROOT / "docs").glob("*.md")):
        assert f"(docs/{doc.name}" in readme, f"README does not link docs/{doc.name}"
