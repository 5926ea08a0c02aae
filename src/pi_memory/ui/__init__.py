"""The local web UI (``pi-memory ui``): see and edit what the agent remembers, in a browser.

A small Starlette app served by uvicorn on 127.0.0.1 only, guarded by a random token (a cookie set
from the printed URL), a ``Host`` allow-list and a same-origin header on every write; the page is
plain HTML, CSS and JavaScript shipped in the package and renders every stored text as text. See
``docs/ui.md``.
"""

from typing import TYPE_CHECKING

from pi_memory._lazy import lazy_package

if TYPE_CHECKING:  # imported on first use (pi_memory._lazy)
    from pi_memory.ui.app import create_app
    from pi_memory.ui.config import UiConfig
    from pi_memory.ui.server import serve

__all__ = ["UiConfig", "create_app", "serve"]

lazy_package(__name__)
