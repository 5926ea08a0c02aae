"""Load another test folder's helper module (``providers/conftest.py``, ``interop/conftest.py``).

The suite runs with ``--import-mode=importlib``, so a folder's ``conftest.py`` cannot be imported by
name; this loads it once under a stable private name and returns the same module every time.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

TESTS = Path(__file__).resolve().parent


def load_test_module(relative: str) -> ModuleType:
    """The module at ``tests/<relative>``, executed once per process."""
    name = "_peer_" + relative.replace("/", "_").removesuffix(".py")
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, TESTS / relative)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the file executes
    spec.loader.exec_module(module)
    return module
