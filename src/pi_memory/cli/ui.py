"""``pi-memory ui``: the local web UI over the agent's memory (see ``docs/ui.md``).

The store is the one the agent uses in this directory (the ``pi-memory`` settings, a trusted
project's included), unless ``--dir`` or ``--dsn`` says otherwise, as for every memory command.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def ui(
    ctx: typer.Context,
    port: Annotated[int | None, typer.Option("--port", min=1, max=65535, show_default=False,
                                             help="Port on 127.0.0.1 (default: a free one).")] = None,
    no_browser: Annotated[bool, typer.Option("--no-browser", help="Print the URL only; do not open a browser.")]
    = False,
    dir: Annotated[Path | None, typer.Option(
        "--dir", file_okay=False, show_default=False,
        help="Memory directory (forces the file backend). Default: pi-memory settings.")] = None,
    dsn: Annotated[str | None, typer.Option("--dsn", show_default=False,
                                            help="PostgreSQL DSN (forces the PostgreSQL backend).")] = None,
    namespace: Annotated[str | None, typer.Option("--namespace", show_default=False,
                                                  help="PostgreSQL namespace (default: settings, else 'default').")]
    = None,
    memory_limit: Annotated[int | None, typer.Option("--memory-limit", min=1, show_default=False,
                                                     help="Char budget of MEMORY.md.")] = None,
    user_limit: Annotated[int | None, typer.Option("--user-limit", min=1, show_default=False,
                                                   help="Char budget of USER.md.")] = None,
) -> None:
    """Serve a local web page to see and edit memory, recover drift, search recall (127.0.0.1 only)."""
    from pi_memory.backends import SettingsError, store_problem
    from pi_memory.ui.config import UiConfig
    from pi_memory.ui.server import ServeError, serve

    parent = getattr(ctx, "obj", None)
    try:
        config = UiConfig.resolve(
            dir=dir or getattr(parent, "dir", None), dsn=dsn, namespace=namespace,
            memory_limit=memory_limit or getattr(parent, "memory_limit", None),
            user_limit=user_limit or getattr(parent, "user_limit", None))
    except (SettingsError, ValueError, ImportError) as exc:
        typer.echo(f"pi-memory ui: {exc}", err=True)
        raise typer.Exit(2) from None
    store = config.store()
    if (problem := store_problem(store)) is not None:
        typer.echo(f"pi-memory ui: {problem}", err=True)
        config.close()
        raise typer.Exit(1)
    try:
        serve(config, port=port, open_browser=not no_browser, say=lambda line: typer.echo(line))
    except ServeError as exc:
        typer.echo(f"pi-memory ui: {exc}", err=True)
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        pass
    finally:
        config.close()
