"""The MCP server: memory tools, the two files as resources, the snapshot as a prompt.

Built on the official SDK's low-level :class:`mcp.server.lowlevel.Server` rather than its
decorator API, because the tools already carry exact JSON Schemas, output schemas and bounded
:class:`~pi_memory.memory.ToolResult` objects: the low-level API passes them through untouched,
where the decorator API would derive schemas from Python signatures and re-wrap results.

* **tools** — ``memory_add``, ``memory_replace``, ``memory_remove``, ``memory_read`` and whatever
  tool providers add (:mod:`pi_memory.mcp.tools`); results are ``ToolResult.to_mcp()`` verbatim.
* **resources** — ``memory://MEMORY.md`` and ``memory://USER.md``, the live stored text.
* **prompt** — ``memory_snapshot``: the memory guidance and the frozen-snapshot block, every entry
  threat-scanned (a poisoned entry is a placeholder), as a host puts it in a system prompt.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, cast

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

from pi_memory import __version__
from pi_memory.backends import redact
from pi_memory.backends.dsn import REDACTING_FILTER
from pi_memory.base.tools import tool_result
from pi_memory.memory import TARGETS, MemoryStore, bound_snapshot, create_memory_tools, memory_prompt
from pi_memory.memory.entries import parse_entries
from pi_memory.memory.snapshot import render_block

from .tools import READ_ONLY_TOOLS, McpTool, ToolContext, ToolProvider, collect_tools

__all__ = ["PROMPT_NAME", "RESOURCE_URIS", "create_server", "serve_stdio", "server_instructions",
           "snapshot_prompt_text"]

log = logging.getLogger(__name__)
log.addFilter(REDACTING_FILTER)  # a tool's traceback may quote a DSN

SERVER_NAME = "pi-memory"
PROMPT_NAME = "memory_snapshot"
RESOURCE_URIS = {"memory": "memory://MEMORY.md", "user": "memory://USER.md"}
_RESOURCE_NOT_FOUND = -32002  # the MCP specification's code for an unknown resource URI
_RESOURCE_TEXT = {
    "memory": "The agent's notes: facts about projects, the environment, tools and conventions.",
    "user": "The user profile: who the user is, how they like to work, their stated preferences.",
}
_ANNOTATIONS = {
    "memory_add": types.ToolAnnotations(title="Add a memory entry", destructive_hint=False, idempotent_hint=True),
    "memory_replace": types.ToolAnnotations(title="Replace a memory entry", destructive_hint=True),
    "memory_remove": types.ToolAnnotations(title="Remove a memory entry", destructive_hint=True),
    "memory_read": types.ToolAnnotations(title="Read memory"),
}
INSTRUCTIONS = (
    "Persistent memory that survives across sessions and clients: MEMORY.md (your notes) and USER.md "
    "(the user profile). What was stored when this server started is shown below; call memory_read "
    "for the live entries (or use the "
    f"'{PROMPT_NAME}' prompt); save lasting facts with memory_add."
)


def server_instructions(store: MemoryStore) -> str:
    """What the initialize result's ``instructions`` carry: the guidance and the frozen snapshot.

    Clients such as Claude Code put ``instructions`` in the system prompt, so an MCP user gets the
    block a host user gets, frozen when the server starts (the prompt prefix stays cacheable) and
    bounded by the same 50,000-char cap, every entry threat-scanned.
    """
    return f"{INSTRUCTIONS}\n\n{memory_prompt(store.frozen_snapshot())}"


def _describe(tool: McpTool) -> types.Tool:
    annotations = _ANNOTATIONS.get(tool.name)
    if annotations is None and tool.name in READ_ONLY_TOOLS:
        annotations = types.ToolAnnotations(read_only_hint=True, open_world_hint=False)
    elif annotations is not None:
        read_only = tool.name in READ_ONLY_TOOLS
        annotations = annotations.model_copy(update={"read_only_hint": read_only, "open_world_hint": False})
    return types.Tool(
        name=tool.name,
        description=tool.description,
        input_schema=tool.parameters,
        output_schema=tool.output_schema,
        annotations=annotations,
    )


def snapshot_prompt_text(store: MemoryStore) -> str:
    """The guidance and the sanitized snapshot of what is stored now (store state untouched).

    Raises :class:`MCPError` when a target cannot be read, so a client never mistakes an
    unreachable database for an empty memory.
    """
    blocks: list[str] = []
    for target in TARGETS:
        raw = store.backend.read(target)
        if not raw.readable:
            raise MCPError(code=types.INTERNAL_ERROR, message=f"{raw.error}. Nothing was changed; retry later.")
        entries = parse_entries(raw.text)
        blocks.append(render_block(target, entries, store.backend.label(target), store.char_limit(target)))
    return memory_prompt(bound_snapshot(blocks[0], blocks[1]))


def create_server(
    store: MemoryStore,
    *,
    providers: Iterable[ToolProvider] = (),
    settings: Mapping[str, Any] | None = None,
    section: Callable[[str], Mapping[str, Any]] | None = None,
    tools: Sequence[McpTool] | None = None,
) -> Server[Any]:
    """An MCP server over ``store``; run it with :func:`serve_stdio` or :func:`~pi_memory.mcp.http.serve_http`.

    ``tools`` replaces the four memory tools (rarely needed); ``providers`` add more (see
    :mod:`pi_memory.mcp.tools`); ``settings`` (the ``pi-memory`` section) and ``section`` (any
    other section by name) are handed to providers.
    """
    base = list(tools) if tools is not None else list(create_memory_tools(store))
    context = ToolContext(store, dict(settings or {}), section or (lambda name: {}))
    offered = collect_tools(base, providers, context)
    by_name = {tool.name: tool for tool in offered}
    listing = types.ListToolsResult(tools=[_describe(tool) for tool in offered])

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return listing

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        tool = by_name.get(params.name)
        if tool is None:
            known = ", ".join(by_name)
            raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown tool {params.name!r}. Available: {known}.")
        try:
            result = await tool.execute(f"mcp-{ctx.request_id}", params.arguments or {})
        except Exception as exc:  # a tool bug must come back as a failed call, not a dead session
            log.exception("tool %s raised", params.name)  # scrubbed by the logger's filter
            result = tool_result({"success": False, "error": redact(f"{params.name} failed unexpectedly: {exc}")})
        return types.CallToolResult.model_validate(result.to_mcp())

    async def list_resources(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListResourcesResult:
        return types.ListResourcesResult(
            resources=[
                types.Resource(
                    uri=uri,
                    name=store.backend.label(target),
                    title=store.backend.label(target),
                    description=f"{_RESOURCE_TEXT[target]} Stored at {store.backend.location(target)}.",
                    mime_type="text/markdown",
                )
                for target, uri in RESOURCE_URIS.items()
            ]
        )

    async def read_resource(ctx: Any, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        target = next((t for t, uri in RESOURCE_URIS.items() if uri == str(params.uri)), None)
        if target is None:
            known = ", ".join(RESOURCE_URIS.values())
            raise MCPError(code=_RESOURCE_NOT_FOUND, message=f"Unknown resource {params.uri}. Available: {known}.")
        raw = await anyio.to_thread.run_sync(store.backend.read, target)
        if not raw.readable:
            raise MCPError(code=types.INTERNAL_ERROR, message=f"{raw.error}. Nothing was changed; retry later.")
        contents = types.TextResourceContents(uri=str(params.uri), mime_type="text/markdown", text=raw.text)
        return types.ReadResourceResult(contents=[contents])

    async def list_prompts(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListPromptsResult:
        prompt = types.Prompt(
            name=PROMPT_NAME,
            title="Memory snapshot",
            description=(
                "The memory guidance and both stores as a system-prompt block (entries threat-scanned; "
                "a poisoned entry appears as a [BLOCKED: …] placeholder)."
            ),
            arguments=[],
        )
        return types.ListPromptsResult(prompts=[prompt])

    async def get_prompt(ctx: Any, params: types.GetPromptRequestParams) -> types.GetPromptResult:
        if params.name != PROMPT_NAME:
            raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown prompt {params.name!r}. Use {PROMPT_NAME!r}.")
        text = await anyio.to_thread.run_sync(snapshot_prompt_text, store)
        message = types.PromptMessage(role="user", content=types.TextContent(type="text", text=text))
        return types.GetPromptResult(description="Memory guidance and snapshot", messages=[message])

    return Server(
        SERVER_NAME,
        version=__version__,
        title="pi-memory",
        instructions=server_instructions(store),
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_read_resource=read_resource,
        on_list_prompts=list_prompts,
        on_get_prompt=get_prompt,
    )


async def serve_stdio(server: Server[Any]) -> None:
    """Serve one client over stdin/stdout until it disconnects (stdout carries protocol only).

    A line that is not a JSON-RPC message gets a JSON-RPC error with ``"id": null`` (see
    :class:`_AnswerUndecodable`) and the session goes on.
    """
    async with stdio_server() as (read_stream, write_stream):
        answering = _AnswerUndecodable(read_stream, write_stream)
        await server.run(answering, write_stream, server.create_initialization_options())


def _decode_error(exc: Exception) -> types.JSONRPCError:
    """The JSON-RPC answer to a line that could not be decoded: ``-32700`` when it is not JSON (a
    lone ``\\ud800`` escape included), ``-32600`` when it is JSON but not a JSON-RPC message. The id
    is ``null``: it cannot be known from a line that did not decode."""
    problems = exc.errors(include_input=False) if isinstance(exc, ValidationError) else []
    unparsable = not problems or any(problem["type"] == "json_invalid" for problem in problems)
    if unparsable:
        detail = next((p["msg"] for p in problems if p["type"] == "json_invalid"), type(exc).__name__)
        error = types.ErrorData(code=types.PARSE_ERROR, message=f"Parse error: {detail}")
    else:
        error = types.ErrorData(code=types.INVALID_REQUEST,
                                message="Invalid Request: not a JSON-RPC 2.0 request, notification or response")
    return types.JSONRPCError(jsonrpc="2.0", id=None, error=error)


class _AnswerUndecodable:
    """The stdio read stream, answering what the SDK could not decode.

    The SDK's stdio transport turns an undecodable line into an exception on the read stream,
    and its dispatcher only logs that: the client, which sent a request, then waits forever.
    This wrapper writes :func:`_decode_error`'s answer instead and reads on.
    """

    def __init__(self, inner: Any, write_stream: Any) -> None:
        self._inner = inner
        self._write = write_stream

    @property
    def last_context(self) -> Any:
        """The sender's context of the last item (the SDK's dispatcher reads it)."""
        return getattr(self._inner, "last_context", None)

    async def receive(self) -> SessionMessage:
        while True:
            item = await self._inner.receive()
            if not isinstance(item, Exception):
                return cast(SessionMessage, item)
            answer = _decode_error(item)
            log.warning("stdin: answered an undecodable line with %s", answer.error.message)
            await self._write.send(SessionMessage(answer))

    async def aclose(self) -> None:
        await self._inner.aclose()

    def __aiter__(self) -> _AnswerUndecodable:
        return self

    async def __anext__(self) -> SessionMessage:
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    async def __aenter__(self) -> _AnswerUndecodable:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()
