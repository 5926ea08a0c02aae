"""Subcommands whose modules are imported only when they run (or when help lists them).

``pi-memory status`` should not import the agent host, the recall index or the MCP SDK because
``chat``, ``recall`` and ``mcp`` exist. :func:`lazy_group` gives Typer a group class that knows
those commands by name and a ``"module:attribute"`` target; the target (a command function or a
``typer.Typer`` sub-app) is imported and turned into a click command the first time the group
looks the name up. Help, usage errors and options are Typer's own, exactly as if the command had
been registered with ``app.command(name)(function)`` or ``app.add_typer(sub_app, name=name)``.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping, MutableMapping
from typing import Any, ClassVar

import typer
from typer._click import Command, Context  # the click that typer vendors (typer has no public name for these)
from typer.core import TyperGroup
from typer.main import get_command_from_info, get_group_from_info
from typer.models import CommandInfo, TyperInfo

__all__ = ["command_group", "lazy_group"]


class _Commands(MutableMapping[str, Command]):
    """A group's commands by name, in order: the registered ones, then the lazy ones, each
    loaded on first lookup. Every name is listed (help, "Did you mean …?") without loading."""

    def __init__(self, group: _LazyGroup, registered: MutableMapping[str, Command]) -> None:
        self._group = group
        self._loaded = dict(registered)

    def _names(self) -> list[str]:
        return [*self._loaded, *(name for name in self._group.targets if name not in self._loaded)]

    def __getitem__(self, name: str) -> Command:
        if name not in self._loaded and name in self._group.targets:
            self._loaded[name] = self._group.load(name, self._group.targets[name])
        return self._loaded[name]

    def __setitem__(self, name: str, command: Command) -> None:
        self._loaded[name] = command

    def __delitem__(self, name: str) -> None:
        del self._loaded[name]

    def __contains__(self, name: object) -> bool:
        return name in self._loaded or name in self._group.targets

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __len__(self) -> int:
        return len(self._names())


class _LazyGroup(TyperGroup):
    targets: ClassVar[Mapping[str, str]] = {}

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        self.commands = _Commands(self, self.commands)

    def list_commands(self, ctx: Context) -> list[str]:
        """Every name, without importing anything (typer's version looks at each command)."""
        return list(self.commands)

    def load(self, name: str, target: str) -> Command:
        """Import ``target`` and build its click command as ``app.command``/``app.add_typer`` would."""
        module, _, attribute = target.partition(":")
        found: Any = getattr(importlib.import_module(module), attribute)
        if isinstance(found, typer.Typer):
            return get_group_from_info(TyperInfo(found, name=name),
                                       pretty_exceptions_short=found.pretty_exceptions_short,
                                       rich_markup_mode=self.rich_markup_mode, suggest_commands=self.suggest_commands)
        return get_command_from_info(CommandInfo(name=name, callback=found), pretty_exceptions_short=True,
                                     rich_markup_mode=self.rich_markup_mode)


def lazy_group(targets: Mapping[str, str]) -> type[TyperGroup]:
    """A group class for ``typer.Typer(cls=...)`` that also offers ``targets``: command name →
    ``"module:attribute"`` (a command function or a sub-app), imported on first use. They come
    after the registered commands, in the order given (typer lists sub-apps after commands)."""
    return type("LazyGroup", (_LazyGroup,), {"targets": dict(targets)})


def command_group(name: str, help: str, *, cls: type[TyperGroup] | None = None) -> typer.Typer:
    """A command group as every ``pi-memory`` group is made: help when called without a command,
    no shell-completion options, and no rich tracebacks (errors are messages with a next step)."""
    return typer.Typer(name=name, cls=cls, help=help, no_args_is_help=True, add_completion=False,
                       pretty_exceptions_enable=False)
