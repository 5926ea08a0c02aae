"""``pi-memory db …``: create, upgrade and inspect the PostgreSQL memory schema.

The DSN comes from ``--dsn``, else the ``pi-memory.dsn`` setting, else ``$PI_MEMORY_DSN``; it is
never printed (only ``user@host:port/db``). Exit codes: 0 done / up to date, 1 the database
needs attention (unreachable, migrations pending, schema too new), 2 usage.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.table import Table
from rich.text import Text

from pi_memory.cli.lazy import command_group
from pi_memory.cli.terminal import console

app = command_group("db", "Create, upgrade and inspect the PostgreSQL memory schema (backend = \"postgres\").")

out = console()
err = console(stderr=True)

DsnOption = Annotated[
    str | None,
    typer.Option("--dsn", help="PostgreSQL DSN. Default: the pi-memory.dsn setting, else $PI_MEMORY_DSN.",
                 show_default=False),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print the result as JSON.")]


def _exit(as_json: bool, code: int, message: str, **payload: Any) -> NoReturn:
    if as_json:
        typer.echo(json.dumps({"success": code == 0, "error": message, **payload}, ensure_ascii=False, indent=2))
    else:
        err.print(Text(f"Error: {message}"), soft_wrap=True)
    raise typer.Exit(code)


def _dsn(dsn: str | None, as_json: bool) -> str:
    from pi_memory.backends import DSN_ENV
    from pi_memory.cli.options import host_settings

    if dsn:
        return dsn
    configured = host_settings(Path.cwd())[0].section("pi-memory").get("dsn")
    found = configured if isinstance(configured, str) and configured.strip() else os.environ.get(DSN_ENV, "")
    if not found.strip():
        _exit(as_json, 2, f"no database given: pass --dsn, set pi-memory.dsn in settings.json, or set ${DSN_ENV}")
    return found


def _connect(dsn: str, as_json: bool) -> Any:
    from pi_memory.backends import connect_failure, dsn_problem, import_psycopg, remember_dsn

    remember_dsn(dsn)
    if (problem := dsn_problem(dsn)) is not None:
        _exit(as_json, 2, problem)
    psycopg, _ = import_psycopg()
    try:
        return psycopg.connect(dsn, autocommit=True, connect_timeout=5, application_name="pi-memory db")
    except psycopg.Error as exc:
        _exit(as_json, 1, connect_failure(dsn, exc))


def _apply(dsn: str | None, as_json: bool, verb: str) -> None:
    from pi_memory.backends.postgres import describe_dsn
    from pi_memory.backends.schema import SchemaError, migrate, schema_status

    url = _dsn(dsn, as_json)
    with _connect(url, as_json) as conn:
        before = schema_status(conn).current
        try:
            applied = migrate(conn)
        except SchemaError as exc:
            _exit(as_json, 1, str(exc))
        after = schema_status(conn).current
    where = describe_dsn(url)
    if as_json:
        payload = {"success": True, "database": where, "from": before, "version": after,
                   "applied": [{"version": m.version, "description": m.description} for m in applied]}
        typer.echo(json.dumps(payload, indent=2))
        return
    if not applied:
        out.print(Text(f"{where}: schema already at version {after}; nothing to {verb}."), soft_wrap=True)
        return
    for migration in applied:
        out.print(Text(f"applied {migration.version}: {migration.description}"))
    start = "no schema" if before is None else f"version {before}"
    out.print(Text(f"{where}: {start} → version {after}."), soft_wrap=True)


@app.command()
def init(dsn: DsnOption = None, as_json: JsonOption = False) -> None:
    """Create the pi-memory tables (safe to re-run; a fleet may run it at once)."""
    _apply(dsn, as_json, "create")


@app.command()
def migrate(dsn: DsnOption = None, as_json: JsonOption = False) -> None:
    """Apply pending schema migrations (each exactly once, under an advisory lock)."""
    _apply(dsn, as_json, "migrate")


@app.command()
def status(dsn: DsnOption = None, as_json: JsonOption = False) -> None:
    """Schema version, pending migrations and the namespaces stored (reads only)."""
    from pi_memory.backends.postgres import describe_dsn
    from pi_memory.backends.schema import schema_status

    url = _dsn(dsn, as_json)
    rows: list[tuple[Any, ...]] = []
    with _connect(url, as_json) as conn:
        state = schema_status(conn)
        if state.current is not None and not state.too_new and not state.pending:
            rows = conn.execute(
                "SELECT namespace, target, length(content), updated_at FROM pi_memory_files "
                "WHERE content IS NOT NULL ORDER BY namespace, target"
            ).fetchall()
    problem = state.problem()
    if as_json:
        payload = {
            "success": problem is None, "database": describe_dsn(url), "version": state.current,
            "latest": state.latest, "pending": [m.version for m in state.pending],
            "namespaces": [{"namespace": ns, "target": t, "chars": n, "updatedAt": at.isoformat()}
                           for ns, t, n, at in rows],
        }
        if problem:
            payload["error"] = problem
        typer.echo(json.dumps(payload, ensure_ascii=False, indent=2))
        raise typer.Exit(0 if problem is None else 1)
    out.print(Text(f"database: {describe_dsn(url)}"), soft_wrap=True)
    out.print(Text(f"schema:   version {state.current if state.current is not None else '—'} "
                   f"(this pi-memory knows {state.latest})"))
    if problem:
        err.print(Text(f"Next: {problem}."), soft_wrap=True)
        raise typer.Exit(1)
    table = Table("namespace", "file", "chars", "updated", show_edge=False)
    for ns, target, chars, at in rows:
        table.add_row(ns, "MEMORY.md" if target == "memory" else "USER.md", f"{chars:,}", at.isoformat(" ", "seconds"))
    if rows:
        out.print(table)
    else:
        out.print(Text("no memory stored yet"))


@app.command()
def backups(
    show: Annotated[str | None, typer.Argument(metavar="[LOCATION]", help="Print this backup's text "
                                               "(postgres:<namespace>/MEMORY.md.bak.<ts>, or just its name).",
                                               show_default=False)] = None,
    namespace: Annotated[str, typer.Option("--namespace", help="Memory namespace.")] = "default",
    dsn: DsnOption = None,
    as_json: JsonOption = False,
) -> None:
    """List a namespace's drift backups, or print one (a refused write names it in driftBackup)."""
    from pi_memory.backends.postgres import PostgresBackend, PostgresUnavailable

    if show is not None and show.startswith("postgres:") and "/" in show:
        namespace = show[len("postgres:"):].rsplit("/", 1)[0]
    url = _dsn(dsn, as_json)
    _connect(url, as_json).close()  # a clear message if the server is down
    backend = PostgresBackend(url, namespace, pool_size=1, auto_migrate=False)
    try:
        if show is not None:
            text = backend.read_backup(show)
            if text is None:
                _exit(as_json, 1, f"no backup {show!r} in namespace {namespace!r}; list them with "
                      f"`pi-memory db backups --namespace {namespace}`")
            if as_json:
                typer.echo(json.dumps({"success": True, "location": backend.backup_location(
                    show.rsplit("/", 1)[-1]), "text": text}, ensure_ascii=False, indent=2))
            else:
                typer.echo(text)
            return
        found = backend.list_backups()
    except PostgresUnavailable as exc:
        _exit(as_json, 1, str(exc))
    finally:
        backend.close()
    if as_json:
        rows = [{"location": b.location, "target": b.target, "createdAt": b.created_at.isoformat(), "chars": b.chars}
                for b in found]
        typer.echo(json.dumps({"success": True, "namespace": namespace, "backups": rows}, indent=2))
        return
    if not found:
        out.print(Text(f"no backups in namespace {namespace!r}"), soft_wrap=True)
        return
    table = Table("backup", "created", "chars", show_edge=False)
    for backup in found:
        table.add_row(backup.location, backup.created_at.isoformat(" ", "seconds"), f"{backup.chars:,}")
    out.print(table)
