"""The real-prose bench (``bench/wild_text.py``), imported by path: which paragraphs of a README
it keeps, that each paragraph's half is the hand-written sets' hashed half, and that a run over
the installed packages reports both halves without printing any probe text."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest
from tests.fixture_sets import hashed_part

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.fixture(scope="module")
def wild() -> ModuleType:
    sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location("bench_wild_text", BENCH / "wild_text.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


README = """# mylib

| option | meaning |
|---|---|

Short line.

mylib reads a settings file from the working directory and caches every parsed value in memory
so that later lookups cost nothing.

```python
x = 1
```

0123456789 0123456789 0123456789 0123456789 0123456789 0123456789 0123456789
"""


def test_paragraphs_keep_prose_and_drop_markup_short_and_numeric_chunks(wild: ModuleType) -> None:
    kept = list(wild.paragraphs(README))
    assert kept == [
        "mylib reads a settings file from the working directory and caches every parsed value in memory "
        "so that later lookups cost nothing."
    ]


def test_each_paragraph_sits_in_the_hashed_half_of_the_fixture_sets(wild: ModuleType) -> None:
    for text in ("alpha beta gamma", "a note about the cache", "ein Satz über das Wetter", "x" * 80):
        assert wild._part(text) == hashed_part(text)


def test_a_run_reports_both_halves_and_never_prints_probe_text(
    wild: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "wild.json"
    assert wild.main(["--show", "--out", str(out), "--harness", str(tmp_path / "absent.py")]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    rows, sources = wild.corpus()
    assert report["sources"] == len(sources) > 0
    assert report["tune"]["paragraphs"] + report["probe"]["paragraphs"] == len(rows)
    for part in ("tune", "probe"):
        assert report[part]["flagged"] == sum(report[part]["by_layer"].values())
        assert "hermes_flagged" not in report[part]  # the harness was absent: no peer figure
    shown = [json.loads(line)["text"] for line in capsys.readouterr().err.splitlines()]
    probe = {p for q, p in rows if q == "probe"}
    assert len(shown) == report["tune"]["flagged"]
    assert not probe.intersection(shown)


def _dist(site: Path, name: str, body: str) -> None:
    info = site / f"{name.replace('-', '_')}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n\n{body}\n", "utf-8")


def test_unseen_reads_only_packages_installed_elsewhere_and_not_here(wild: ModuleType, tmp_path: Path) -> None:
    site = tmp_path / "site-packages"
    only_there = ("othertool keeps a small cache of parsed settings next to the project and rebuilds it "
                  "whenever the settings file changes on disk.")
    _dist(site, "othertool-from-elsewhere", only_there)
    _dist(site, "pytest", "pytest is installed here too, so this paragraph of its stand-in must never be read.")
    rows = wild.corpus_by_source(site)
    assert [(text, source) for _, text, source in rows] == [(only_there, "pypi:othertool-from-elsewhere==1.0")]
    out = tmp_path / "wild.json"
    assert wild.main(["--unseen", str(site), "--out", str(out), "--harness", str(tmp_path / "absent.py")]) == 0
    unseen = json.loads(out.read_text(encoding="utf-8"))["unseen"]
    assert (unseen["packages"], unseen["paragraphs"], unseen["flagged"]) == (1, 1, 0)
