"""``pi-memory mcp``: serve the memory tools over MCP (stdio by default, or streamable HTTP).

The store comes from, in order: ``--dir`` or ``--dsn`` on the command line, then the
``pi-memory`` section of the user's settings (``backend``, ``dataDir``, ``dsn``, ``namespace``,
``memoryCharLimit``, ``userCharLimit``). Project settings are not read: an MCP client starts the
server in whatever directory it likes, and a cloned repository must not redirect your memory.

On stdio, stdout belongs to the protocol: everything else — warnings, errors, the HTTP address —
goes to stderr.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

DirOption = Annotated[
    Path | None,
    typer.Option("--dir", help="Memory directory (file backend). Default: settings, else ~/.pi/agent/memories.",
                 file_okay=False, show_default=False),
]
HttpOption = Annotated[
    str | None,
    typer.Option("--http", metavar="HOST:PORT",
                 help="Serve streamable HTTP at http://HOST:PORT/mcp instead of stdio (host defaults to 127.0.0.1).",
                 show_default=False),
]
TokenFileOption = Annotated[
    Path | None,
    typer.Option("--token-file", help="File holding the bearer token for --http (else $PI_MEMORY_MCP_TOKEN).",
                 dir_okay=False, show_default=False),
]
DsnOption = Annotated[
    str | None,
    typer.Option("--dsn", help="PostgreSQL DSN: use the PostgreSQL backend (overrides settings).", show_default=False),
]
NamespaceOption = Annotated[
    str | None, typer.Option("--namespace", help="PostgreSQL namespace (default: settings, else 'default').",
                             show_default=False)
]


def _fail(message: str) -> typer.Exit:
    typer.echo(f"pi-memory mcp: {message}", err=True)
    return typer.Exit(2)


def mcp(
    ctx: typer.Context,
    dir: DirOption = None,
    http: HttpOption = None,
    token_file: TokenFileOption = None,
    dsn: DsnOption = None,
    namespace: NamespaceOption = None,
    memory_limit: Annotated[int | None, typer.Option("--memory-limit", min=1, help="Char budget of MEMORY.md.",
                                                     show_default=False)] = None,
    user_limit: Annotated[int | None, typer.Option("--user-limit", min=1, help="Char budget of USER.md.",
                                                   show_default=False)] = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Log requests and details to stderr.")] = False,
) -> None:
    """Serve MEMORY.md / USER.md to MCP clients: memory and recall tools, two resources, one prompt."""
    import anyio

    from pi_memory.backends import SettingsError, open_store, store_problem
    from pi_memory.cli.options import host_settings
    from pi_memory.mcp import create_server, discover_providers, serve_stdio
    from pi_memory.mcp.http import BindError, check_bind, load_token, parse_bind, serve_http

    logging.basicConfig(stream=sys.stderr, level=logging.INFO if verbose else logging.WARNING,
                        format="pi-memory mcp: %(levelname)s %(name)s: %(message)s")
    from pi_memory.backends.dsn import install_log_redaction

    install_log_redaction(*logging.getLogger().handlers)  # no log line shows a password
    parent = getattr(ctx, "obj", None)
    dir = dir or getattr(parent, "dir", None)
    memory_limit = memory_limit or getattr(parent, "memory_limit", None)
    user_limit = user_limit or getattr(parent, "user_limit", None)

    settings, warnings = host_settings(Path.cwd())
    for warning in [*warnings, *settings.section_warnings("pi-memory"), *settings.section_warnings(
            "pi-memory-recall"), *settings.section_errors("pi-memory-recall")]:
        logging.getLogger("pi_memory.settings").warning("%s", warning)
    if errors := settings.section_errors("pi-memory"):
        raise _fail("\n".join(errors))
    section: dict[str, Any] = settings.section("pi-memory")
    if memory_limit is not None:
        section["memoryCharLimit"] = memory_limit
    if user_limit is not None:
        section["userCharLimit"] = user_limit
    if dir is not None and dsn is not None:
        raise _fail("pass either --dir (files) or --dsn (PostgreSQL), not both")

    try:
        bind = parse_bind(http) if http is not None else None
        token = load_token(token_file) if bind is not None else None
        if bind is not None:
            check_bind(bind[0], token)
        store = open_store(section, dir=dir, dsn=dsn, namespace=namespace)
    except (BindError, SettingsError, ValueError) as exc:
        raise _fail(str(exc)) from None
    if store.dir is not None and (problem := store_problem(store)) is not None:
        raise _fail(problem)  # a directory that cannot hold memory (a shared database is checked per call)
    store.load_from_disk()
    from pi_memory.mcp.recall import recall_tools

    providers = [recall_tools, *discover_providers()]
    server = create_server(store, providers=providers, settings=section, section=settings.section)

    try:
        if bind is None:
            anyio.run(serve_stdio, server)
        else:
            anyio.run(serve_http, server, bind[0], bind[1], token)
    except BindError as exc:
        raise _fail(str(exc)) from None
    except KeyboardInterrupt:
        pass
    finally:
        close = getattr(store.backend, "close", None)
        if callable(close):
            close()
