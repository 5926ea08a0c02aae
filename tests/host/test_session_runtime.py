"""Session lifecycle (reference §3.8, pi 1.6.0 reasons), guide-dialect events, the ``pi`` object's
actions, project trust, and error reporting through ``ctx.ui``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from host_helpers import kinds, make_runtime, texts

from pi_memory.host import ExtensionSource, HeadlessUI, SessionRuntime
from pi_memory.host.trust import ProjectTrustStore
from pi_memory.providers import ScriptedProvider, scripted_model
from pi_memory.session import SessionManager

LIFECYCLE = ("session_start", "session_shutdown", "session_before_switch", "session_before_fork",
             "session_before_tree", "session_tree", "model_select", "session:created", "session:loaded")


def recorder(log: list[tuple[str, Any]]) -> Any:
    def extension(pi: Any) -> None:
        for name in LIFECYCLE:
            pi.on(name, lambda e, ctx, name=name: log.append((name, e.get("reason") or e.get("source"))))
    return extension


@pytest.mark.anyio
async def test_lifecycle_events_by_action(tmp_path: Path) -> None:
    log: list[tuple[str, Any]] = []

    rt, _, _ = await make_runtime(tmp_path, ["one", "two", "three"], recorder(log))
    assert log == [("session_start", "startup"), ("session:created", "startup")]
    await rt.prompt("first")
    first_file = rt.session_manager.get_session_file()
    user_id = next(e["id"] for e in rt.session_manager.get_entries() if e["type"] == "message")
    log.clear()

    assert not (await rt.new_session()).cancelled
    assert rt.session_manager.get_session_file() != first_file
    assert log == [("session_before_switch", "new"), ("session_shutdown", "new"), ("session_start", "new"),
                   ("session:created", "new")]
    log.clear()

    assert first_file is not None
    await rt.resume(first_file)
    assert rt.session_manager.get_session_file() == first_file
    assert log == [("session_before_switch", "resume"), ("session_shutdown", "resume"),
                   ("session_start", "resume"), ("session:loaded", "resume")]
    log.clear()

    await rt.prompt("second")
    leaf = rt.session_manager.get_leaf_id()
    assert leaf is not None
    result = await rt.navigate_tree(user_id)
    user_entry = rt.session_manager.get_entry(user_id)
    assert user_entry is not None and user_entry["parentId"] is not None  # the model_change before it
    assert result.editor_text == "first" and rt.session_manager.get_leaf_id() == user_entry["parentId"]
    assert log[-3:] == [("session_before_tree", None), ("session_tree", None), ("session:loaded", "tree")]
    await rt.navigate_tree(leaf)
    log.clear()

    forked = await rt.fork(user_id)
    assert forked.editor_text == "first"
    assert log == [("session_before_fork", None), ("session_shutdown", "fork"), ("session_start", "fork"),
                   ("session:loaded", "fork")]
    header = rt.session_manager.get_header()
    assert header is not None and header.get("parentSession") == first_file
    log.clear()

    await rt.reload()
    assert log == [("session_shutdown", "reload"), ("session_start", "reload"), ("session:loaded", "reload")]
    log.clear()
    await rt.set_model(scripted_model("other"))
    assert log == [("model_select", "set")]
    log.clear()
    await rt.shutdown()
    await rt.shutdown()
    assert log == [("session_shutdown", "quit")]


@pytest.mark.anyio
async def test_session_start_carries_previous_file_and_cancel_keeps_the_session(tmp_path: Path) -> None:
    seen: list[Any] = []

    def ext(pi: Any) -> None:
        pi.on("session_start", lambda e: seen.append(e.get("previousSessionFile")))
        pi.on("session_before_switch", lambda e: {"cancel": True} if e.reason == "new" else None)
        pi.on("session_before_fork", lambda e: {"cancel": True})

    rt, _, _ = await make_runtime(tmp_path, ["a"], ext)
    await rt.prompt("hi")
    before = rt.session_manager.get_session_file()
    assert (await rt.new_session()).cancelled
    entry = rt.session_manager.get_entries()[-1]["id"]
    assert (await rt.fork(entry)).cancelled
    assert rt.session_manager.get_session_file() == before
    other = SessionManager.create(str(tmp_path), str(tmp_path / "sessions"))
    other.append_message({"role": "user", "content": "x", "timestamp": 1})
    other.append_message({"role": "assistant", "content": [], "api": "a", "provider": "p", "model": "m",
                          "usage": {}, "stopReason": "stop", "timestamp": 2})
    target = other.get_session_file()
    assert target is not None
    await rt.resume(target)
    assert seen == [None, before]


@pytest.mark.anyio
async def test_guide_dialect_events_and_entries(tmp_path: Path) -> None:
    log: list[Any] = []

    def guide(pi: Any) -> None:
        def on_message(message: Any) -> None:
            entry = pi.get_entries()
            assert any(e["id"] == message.entry_id for e in entry)  # already written
            log.append(("message", message.role, message.text))

        pi.on("message", on_message)
        pi.on("message:user", lambda m: log.append(("user", m.text)))
        pi.on("message:assistant", lambda m: log.append(("assistant", m.text)))

        def saving(event: Any) -> None:
            if event.reason == "message" and event.message["role"] == "assistant":
                pi.append_custom_entry("checkpoint", {"before": event.message["role"]})
        pi.on("session:saving", saving)

        def tool_call(event: Any) -> Any:
            log.append(("tool:call", event.tool_name, event.input))
            return None
        pi.on("tool:call", tool_call)
        pi.on("tool:result", lambda event: {"content": [{"type": "text", "text": "patched"}]})
        pi.register_tool({"name": "echo", "description": "Echo", "parameters": {
            "type": "object", "properties": {"x": {"type": "string"}}}, "execute": lambda args: args["x"]})

        def note(args: str, ctx: Any) -> None:
            log.append(("note-id", pi.append_custom_message_entry("note", "remember " + args, True, {"n": 1})))
        pi.register_command("note", handler=note)

    rt, provider, _ = await make_runtime(tmp_path, [{"tool_calls": [{"name": "echo", "arguments": {"x": 7}}]},
                                                    "done"], guide)
    await rt.prompt("/note tea")
    await rt.prompt("hi")
    entries = rt.session_manager.get_entries()
    assert kinds(entries) == ["custom_message", "model_change", "message:user", "custom", "message:assistant",
                              "message:toolResult", "custom", "message:assistant"]
    assert entries[0]["details"] == {"n": 1}
    assert texts(entries[5]["message"]) == "patched"
    assert ("tool:call", "echo", {"x": "7"}) in log  # coerced before the handler sees it
    assert provider.requests[0].messages[0] == {"role": "custom", "customType": "note", "content": "remember tea",
                                                "display": True, "details": {"n": 1},
                                                "timestamp": provider.requests[0].messages[0]["timestamp"]}
    assert [x for x in log if x[0] in ("user", "assistant")] == [("user", "hi"), ("assistant", ""),
                                                                ("assistant", "done")]
    assert ("message", "toolResult", "patched") in log


@pytest.mark.anyio
async def test_pi_actions(tmp_path: Path) -> None:
    apis: list[Any] = []

    rt, provider, events = await make_runtime(tmp_path, ["triggered reply", "user reply"], apis.append)
    pi = apis[0]
    pi.set_session_name("  My session ")
    assert pi.get_session_name() == "My session"
    pi.append_entry("state", {"count": 1})
    pi.send_message({"customType": "info", "content": "FYI", "display": True})
    assert kinds(rt.session_manager.get_entries())[-1] == "custom_message"
    assert [e["type"] for e in events[-2:]] == ["message_start", "message_end"]
    target = rt.session_manager.get_entries()[0]["id"]
    pi.set_label(target, "start")
    assert rt.session_manager.get_label(target) == "start"
    pi.send_message({"customType": "ping", "content": "wake up", "display": False}, trigger_turn=True)
    await rt.wait_for_idle()
    assert provider.requests[0].messages[-1]["content"] == "wake up"
    pi.send_user_message("hello from the extension")
    await rt.wait_for_idle()
    assert texts(provider.requests[1].messages[-1]) == "hello from the extension"
    assert pi.get_settings() == {}
    result = await pi.exec(sys.executable, ["-c", "import sys; print('out'); sys.exit(3)"])
    assert (result.stdout.strip(), result.code, result.killed) == ("out", 3, False)
    slow = await pi.exec(sys.executable, ["-c", "import time; time.sleep(30)"], timeout=0.2)
    assert slow.killed
    pi.register_tool({"name": "late", "description": "", "parameters": {}, "execute": lambda a: "x"})
    assert "late" in pi.get_active_tools()
    pi.set_active_tools(["late", "missing"])
    assert pi.get_active_tools() == ["late"]
    assert [t["name"] for t in pi.get_all_tools()] == ["late"]


@pytest.mark.anyio
async def test_handler_errors_surface_in_the_ui_and_never_crash(tmp_path: Path) -> None:
    def bad(pi: Any) -> None:
        pi.on("agent_start", lambda e: 1 / 0)
        pi.on("message_end", lambda e: [][1])
        pi.on("session:saving", lambda e: {}["x"])

    rt, _, _ = await make_runtime(tmp_path, ["fine"], bad)
    result = await rt.prompt("hi")
    assert result is not None and texts(result.last_assistant or {}) == "fine"
    ui = rt.ui
    assert isinstance(ui, HeadlessUI)
    errors = [text for text, level in ui.notifications if level == "error"]
    assert any("(agent_start)" in t and "division by zero" in t for t in errors)
    assert any("(message_end)" in t for t in errors)
    assert any("(session:saving)" in t for t in errors)


def write_project(tmp_path: Path) -> Path:
    project = tmp_path / "proj"
    (project / ".pi").mkdir(parents=True)
    ext = project / ".pi" / "tools_ext.py"
    ext.write_text("def extension(pi, config=None):\n"
                   "    pi.register_tool({'name': 'project_tool', 'description': str(config),\n"
                   "                      'parameters': {}, 'execute': lambda a: 'x'})\n")
    (project / ".pi" / "settings.json").write_text(json.dumps(
        {"extensions": [{"source": "tools_ext.py", "config": {"k": 1}}]}))
    return project


@pytest.mark.anyio
async def test_project_extensions_need_trust(tmp_path: Path) -> None:
    project = write_project(tmp_path)
    store = ProjectTrustStore(tmp_path / "trust")

    async def create(**kw: Any) -> SessionRuntime:
        return await SessionRuntime.create(cwd=str(project), session_manager=SessionManager.in_memory(str(project)),
                                           model=scripted_model(), provider=ScriptedProvider([]),
                                           use_entry_points=False, trust_store=store, **kw)

    untrusted = await create()
    assert not untrusted.project_trusted and "project_tool" not in untrusted.runner.tools
    trusted = await create(trust=True)
    assert trusted.project_trusted and trusted.runner.tools["project_tool"].description == "{'k': 1}"
    assert (await create(trust=False)).runner.tools.get("project_tool") is None

    asked: list[str] = []

    def decide(pi: Any) -> None:
        pi.on("project_trust", lambda e: asked.append(e.cwd) or {"trusted": True, "remember": True})
    by_extension = await create(factories=[decide])
    assert by_extension.project_trusted and asked == [str(project.resolve())]
    assert store.get(project) is True


@pytest.mark.anyio
async def test_loader_sources(tmp_path: Path, monkeypatch: Any) -> None:
    (tmp_path / "pkg_dir").mkdir()
    (tmp_path / "pkg_dir" / "myext.py").write_text(
        "def extension(pi):\n    pi.register_command('from-module', handler=lambda a, c: None)\n"
        "def other(pi, config=None):\n    pi.register_command('from-func', handler=lambda a, c: None)\n")
    (tmp_path / "file_ext.py").write_text(
        "async def extension(pi, config=None):\n    pi.register_command('from-file', handler=lambda a, c: None)\n")
    (tmp_path / "nofactory.py").write_text("X = 1\n")
    (tmp_path / "broken.py").write_text("raise ImportError('missing dependency')\n")
    dist = tmp_path / "site" / "fake_ext-1.0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: fake-ext\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[pi_memory.extensions]\nfake = myext:other\n")
    monkeypatch.syspath_prepend(str(tmp_path / "pkg_dir"))
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    agent = tmp_path / "home-agent"
    (agent / "extensions").mkdir(parents=True)
    (agent / "extensions" / "auto.py").write_text(
        "def extension(pi):\n    pi.register_command('auto', handler=lambda a, c: None)\n")
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(agent))

    rt = await SessionRuntime.create(
        cwd=str(tmp_path), session_manager=SessionManager.in_memory(str(tmp_path)), model=scripted_model(),
        provider=ScriptedProvider([]), trust=False,
        extensions=[str(tmp_path / "file_ext.py"), "myext", str(tmp_path / "nofactory.py"),
                    str(tmp_path / "broken.py"), "no_such_module:ext", ExtensionSource("myext:other")])
    # "memory" is pi-memory's own extension, installed through the same entry-point group
    assert list(rt.runner.commands) == ["from-file", "from-module", "from-func", "memory", "auto"]
    paths = [e.path for e in rt.runner.extensions]
    assert paths[0] == str(tmp_path / "file_ext.py") and "myext:other" in paths
    errors = {e.extension_path: e.error for e in rt.runner.errors}
    assert "does not export a valid factory function" in errors[str(tmp_path / "nofactory.py")]
    assert "missing dependency" in errors[str(tmp_path / "broken.py")]
    assert "No module named 'no_such_module'" in errors["no_such_module:ext"]
    ui = rt.ui
    assert isinstance(ui, HeadlessUI) and len([n for n in ui.notifications if n[1] == "error"]) == 3
