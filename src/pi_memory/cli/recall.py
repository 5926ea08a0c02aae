"""``pi-memory recall …``: build and query the recall index from a shell.

The human reading the terminal sees recalled text as it was written; a message the threat
scanner flags is marked with a warning (models get a placeholder instead, see
:mod:`pi_memory.recall.safety`).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import (
    BarColumn,
    DownloadColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TextColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from pi_memory.backends import redact
from pi_memory.cli.lazy import command_group
from pi_memory.cli.terminal import console
from pi_memory.recall import RecallError, open_index
from pi_memory.recall.backfill import backfill
from pi_memory.recall.decay import index_time
from pi_memory.recall.open import default_url
from pi_memory.recall.safety import threats_in
from pi_memory.session import get_sessions_dir

app = command_group("recall", "Search every past message (hybrid full-text + embedding index).")

out = console()
err = console(stderr=True)

UrlOption = Annotated[
    str | None,
    typer.Option(
        "--index",
        help="Index path or URL (postgresql://…, chroma://host:port). "
        "Default: $PI_MEMORY_RECALL_URL, else <agentDir>/recall.db.",
        show_default=False,
    ),
]
EmbedderOption = Annotated[
    str | None,
    typer.Option("--embedder", help="static (default), onnx, openai:<model> or ollama:<model>.", show_default=False),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print the result as JSON.")]


def _state_path(url: str) -> Path:
    """Backfill progress lives beside a SQLite index, else in the agent dir."""
    if "://" in url:
        return Path(default_url()).with_name("recall-backfill.json")
    return Path(url).expanduser().with_name(Path(url).name + ".backfill.json")


def _moment(value: str) -> str:
    """``--since``/``--until``: any ISO 8601 date or time, as the index stores times (UTC, ms, ``Z``).

    The indexes compare timestamps as text, so ``2025-03-02`` or ``…+02:00`` must be turned into
    pi's own form first, or the comparison would silently be wrong.
    """
    try:
        return index_time(value)
    except ValueError:
        raise typer.BadParameter(f"{value!r} is not an ISO date or time (e.g. 2025-03-02 or 2025-03-02T10:00Z)"
                                 ) from None


def _missing(url: str | None) -> Path | None:
    """The local SQLite index ``url`` names when it does not exist yet: read-only commands then
    report an empty index instead of creating the file (reads create nothing)."""
    target = url or default_url()
    if "://" in target and not target.startswith("sqlite:///"):
        return None
    path = Path(target.removeprefix("sqlite://")).expanduser()
    return None if path.exists() else path


def _no_index_yet(path: Path) -> None:
    err.print(Text(f"No recall index at {path} yet: the first indexed message or `pi-memory recall index` "
                   "creates it.", style="yellow"), soft_wrap=True)


def _fail(message: str) -> None:
    err.print(Text(f"Error: {message}"), soft_wrap=True)
    raise typer.Exit(1)


@app.command("index")
def index_cmd(
    sessions: Annotated[
        Path | None,
        typer.Option("--sessions", help="Session directory or file. Default: <agentDir>/sessions.", show_default=False),
    ] = None,
    url: UrlOption = None,
    embedder: EmbedderOption = None,
    as_json: JsonOption = False,
) -> None:
    """Index new messages of existing session files (incremental: only what was appended)."""
    target = url or default_url()
    root = sessions or Path(get_sessions_dir())
    if not root.exists():
        _fail(f"no session files at {root}; pass --sessions DIR")
    try:
        index = open_index(target, embedder=embedder)
    except RecallError as exc:
        _fail(str(exc))
    try:
        with _progress("indexing", "sessions", DownloadColumn(), quiet=as_json) as (update, step):

            def progress(file: str, done: int, total: int) -> None:
                update(done, total, Path(file).name[:40])

            result = backfill(index, root, _state_path(target), progress=progress, step=step)
        count = index.count()
    except RecallError as exc:
        _fail(str(exc))
    finally:
        index.close()
    payload = {**result.__dict__, "count": count, "index": redact(target, target)}
    if as_json:
        typer.echo(json.dumps(payload, indent=2))
        return
    out.print(
        Text(
            f"Indexed {result.indexed} new message(s) from {result.files} file(s) "
            f"({result.files_skipped} unchanged); the index holds {count}."
        )
    )


@app.command("search")
def search_cmd(
    query: Annotated[str, typer.Argument(help="What to look for.")],
    top_k: Annotated[int, typer.Option("--top-k", "-k", min=1, max=100, help="How many hits.")] = 5,
    session: Annotated[list[str] | None, typer.Option(
        "--session", metavar="ID", help="Only this session id (repeatable: any of them).", show_default=False)] = None,
    role: Annotated[list[str] | None, typer.Option(
        "--role", metavar="ROLE", help="Only this role: user, assistant, toolResult, custom (repeatable).",
        show_default=False)] = None,
    since: Annotated[str | None, typer.Option(
        "--since", metavar="TIME", show_default=False, parser=_moment,
        help="Only messages from this time on: an ISO date or time, e.g. 2025-03-02 or 2025-03-02T10:00Z "
             "(without an offset: UTC).")] = None,
    until: Annotated[str | None, typer.Option(
        "--until", metavar="TIME", show_default=False, parser=_moment,
        help="Only messages before this time (exclusive), same format as --since.")] = None,
    url: UrlOption = None,
    embedder: EmbedderOption = None,
    as_json: JsonOption = False,
) -> None:
    """Search the index; flagged messages are shown with a warning marker."""
    filters: dict[str, Any] = {}
    if session:
        filters["session_id"] = session
    if role:
        filters["role"] = role
    if since:
        filters["since"] = since
    if until:
        filters["until"] = until
    missing = _missing(url)
    try:
        if missing is not None:
            _no_index_yet(missing)
            hits = []
        else:
            with _opened(url, embedder) as index:
                hits = index.search(query, top_k=top_k, filters=filters or None)
    except RecallError as exc:
        _fail(str(exc))
    if as_json:
        rows = [{**h.to_json(), "threats": threats_in(h.text)} for h in hits]
        typer.echo(json.dumps({"query": query, "hits": rows}, ensure_ascii=False, indent=2))
        return
    if not hits:
        out.print("No matches.")
        return
    for hit in hits:
        found = threats_in(hit.text)
        head = Text(f"[{hit.id}] (similarity: {hit.similarity:.2f}) {hit.role} {hit.timestamp}", style="bold")
        out.print(head, soft_wrap=True)
        if found:
            out.print(
                Text(f"⚠ flagged by the threat scanner ({', '.join(found)}): models see a placeholder", style="yellow")
            )
        text = hit.text if len(hit.text) <= 800 else hit.text[:800] + " …"
        out.print(Text(text), soft_wrap=True)
        out.print()


@app.command("status")
def status_cmd(url: UrlOption = None, embedder: EmbedderOption = None, as_json: JsonOption = False) -> None:
    """Message count, size, embedder and backend of the index (and damaged stored vectors, if any)."""
    missing = _missing(url)
    try:
        if missing is not None:
            _no_index_yet(missing)
            info: dict[str, Any] = {"backend": "sqlite", "location": str(missing), "count": 0, "exists": False}
        else:
            with _opened(url, embedder) as index:
                info = index.info()
    except RecallError as exc:
        _fail(str(exc))
    info["location"] = redact(str(info.get("location")), url)
    if as_json:
        typer.echo(json.dumps(info, indent=2))
        return
    table = Table(show_header=False, box=None)
    for key in ("backend", "location", "count", "size_bytes", "embedder", "dimension", "embedder_in_use",
                "damaged_vectors"):
        if key != "damaged_vectors" or key in info:  # PostgreSQL checks its own pages
            table.add_row(key, str(info.get(key)))
    out.print(table)


@app.command("reindex")
def reindex_cmd(url: UrlOption = None, embedder: EmbedderOption = None, as_json: JsonOption = False) -> None:
    """Re-embed every message with the chosen embedder (default: the shipped static model)."""
    from pi_memory.recall.reindex import reindex

    target = url or default_url()
    try:
        with _progress("re-embedding", "messages", MofNCompleteColumn(), quiet=as_json) as (update, step):
            total = reindex(target, embedder, progress=update, step=step)
    except RecallError as exc:
        _fail(str(exc))
    if as_json:
        typer.echo(json.dumps({"reindexed": total, "index": redact(target, target)}))
    else:
        out.print(Text(f"Re-embedded {total} message(s)."))


@contextlib.contextmanager
def _progress(verb: str, unit: str, counter: ProgressColumn, *, quiet: bool,
              ) -> Iterator[tuple[Callable[..., None], Callable[[str], None]]]:
    """A transient bar on stderr (none with ``--json``), as ``update(done, total, description=None)``
    and ``step(message)`` for the long index runs to report through."""
    with Progress(TextColumn(f"[bold]{verb}[/bold] {{task.description}}"), BarColumn(), counter,
                  TimeRemainingColumn(), console=err, transient=True, disable=quiet) as bar:
        task = bar.add_task(unit, total=None)

        def update(done: int, total: int, description: str | None = None) -> None:
            bar.update(task, completed=done, total=total, description=description)

        def step(message: str) -> None:
            bar.update(task, description=f"— {message}")

        yield update, step


class _opened:
    """Context manager: open the index, close it after."""

    def __init__(self, url: str | None, embedder: str | None) -> None:
        self._index = open_index(url or default_url(), embedder=embedder)

    def __enter__(self) -> Any:
        return self._index

    def __exit__(self, *exc: object) -> None:
        self._index.close()
