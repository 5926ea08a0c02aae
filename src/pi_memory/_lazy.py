"""Lazy re-exports for a package's ``__init__``: each public name is imported on first use.

A package that re-exports everything eagerly makes every importer pay for everything: ``pi-memory
status`` would load the agent loop, numpy and the LLM SDKs because a module it needs sits in a
package that re-exports them. With :func:`lazy_package` a package writes its re-exports once, as
ordinary imports under ``if TYPE_CHECKING:`` (so type checkers and editors see them), and calls
``lazy_package(__name__)`` after them. At run time nothing is imported until a name is used:
``from pi_memory.memory import MemoryStore`` imports ``pi_memory.memory.store`` then, and keeps
working exactly as before.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from typing import Any

__all__ = ["lazy_package"]

_EXPORTS = "__lazy_exports__"


def lazy_package(name: str) -> None:
    """Resolve the names imported under ``if TYPE_CHECKING:`` in package ``name`` on first access."""
    sys.modules[name].__class__ = _LazyPackage


def _exports(package: types.ModuleType) -> dict[str, tuple[str, str | None]]:
    """``exported name → (module, name in it)`` (``None``: the module itself), read once from the
    package's ``if TYPE_CHECKING:`` imports."""
    found: dict[str, tuple[str, str | None]] | None = package.__dict__.get(_EXPORTS)
    if found is not None:
        return found
    spec = package.__spec__
    source = spec.loader.get_source(spec.name) if spec is not None and spec.loader is not None else None  # type: ignore[attr-defined]
    if source is None:
        raise ImportError(f"{package.__name__}: its source is needed to resolve its lazy re-exports")
    import ast  # only once a re-export is used

    found = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
            for statement in node.body:
                if isinstance(statement, ast.ImportFrom):
                    base = importlib.util.resolve_name("." * statement.level + (statement.module or ""),
                                                       package.__name__) if statement.level else str(statement.module)
                    for alias in statement.names:
                        if statement.module is None:  # from . import entries: a submodule
                            found[alias.asname or alias.name] = (f"{base}.{alias.name}", None)
                        else:
                            found[alias.asname or alias.name] = (base, alias.name)
    types.ModuleType.__setattr__(package, _EXPORTS, found)
    return found


class _LazyPackage(types.ModuleType):
    """The package's module object: missing attributes come from its lazy re-exports."""

    def __getattr__(self, attr: str) -> Any:
        source = _exports(self).get(attr) if not attr.startswith("__") else None
        if source is None:
            raise AttributeError(f"module {self.__name__!r} has no attribute {attr!r}")
        module, original = source
        value = importlib.import_module(module)
        if original is not None:
            value = getattr(value, original)
        types.ModuleType.__setattr__(self, attr, value)
        return value

    def __dir__(self) -> list[str]:
        return sorted({*super().__dir__(), *_exports(self)})

    def __setattr__(self, attr: str, value: Any) -> None:
        # Importing a submodule binds it on its package. Where an export is spelled like a submodule
        # (extensions.memory's ``dream`` function lives in ``dream.py``) the export wins, as it did
        # when the package imported it eagerly.
        if isinstance(value, types.ModuleType) and value.__name__ == f"{self.__name__}.{attr}":
            source = _exports(self).get(attr)
            if source is not None and source[1] is not None:
                if source[0] != value.__name__:
                    return  # resolved from its own module on first use
                value = getattr(value, source[1])
        super().__setattr__(attr, value)
