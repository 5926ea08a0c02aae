"""Setup records: a note that states what a scheduler entry or a config file holds orders nothing.

"launchd: ~/Library/LaunchAgents/com.acme.sync.plist copies ~/Notes to the NAS every night",
"backup.timer: runs restic at 02:00", "En ~/.bashrc: export PATH=\"$HOME/.local/bin:$PATH\" y
alias ll='ls -la'", "В ~/.zshrc прописано: export GOPATH=..." name a job or a file and what is in
it: a record of the user's machine, written like the user's own ("the user runs a LaunchAgent
for backups", ``context_checks.user_record``) but with the job or the file as its subject.

Two shapes, both without an order (an imperative label, "Add to ~/.bashrc:", "Добавь в ...:",
is no record) and, as for the user's own records, with no destination, secret, agent, hidden
act, condition or removal among the line's intent concepts:

* a scheduler or config label, or a unit file's path, then a description (``mood.describes``);
* a file named as a place ("in ~/.bashrc:", "dans ~/.zshrc :", "~/.profile:", "В ~/.bashrc
  добавлено:"), then only shell settings: ``export NAME=...``, ``alias name=...``,
  ``NAME=value``, ``setopt``, ``unset``.
"""

from __future__ import annotations

from pi_memory.security.lazy_re import compile_lazily

#: A scheduler, a unit or a config file opening the line: the record's subject.
_SETUP_SUBJECT = compile_lazily(
    r"^(?:launchd|launchctl|systemd|cron|crontab|anacron|fcron|schtasks|task scheduler|launchagent|launchagents|"
    r"[\w@.-]+\.(?:plist|service|timer|socket|path)|~/library/launchagents/\S+|~/\.config/systemd/\S+)\b"
)
#: A file named as a place: an optional preposition, the file, an optional past participle, a colon.
_FILE_PLACE = compile_lazily(
    r"^(?:(?:in|en|em|dans|im|in der|nel|nella|в|во|trong)\s+)?(?:the\s+|la\s+|le\s+|o\s+)?"
    r"(?:~/|\$home/|\./)?\.?[\w-]*(?:rc|\.conf|\.cfg|\.ini|\.toml|\.env|profile|_profile|\.sh)"
    r"(?:\s+(?:\w+(?:ed|ado|ido|ato|ito|é|ée|но|ено|ано)))?\s*[:：]\s*"
)
#: One shell setting; the settings of a line are joined by ";", "," or "and" in any language.
_SETTING = compile_lazily(
    r"^(?:export\s+)?[a-z_][a-z0-9_]*=\S+$|^alias\s+[\w.-]+=\S.*$|^(?:setopt|unsetopt|unset|unalias)\s+[\w-]+$"
)
_JOIN = compile_lazily(r"\s*(?:;|,|\s(?:and|y|e|et|und|и|ve|và)\s)\s*")
#: What a shell setting must not hold to be only a setting: a command substitution, a pipe.
_RUNS = compile_lazily(r"\$\(|`|\|")


def setup_record(line: str) -> bool:
    """Does the folded line record a scheduler entry or a config file's settings (see module doc)?
    The caller checks the line's intent concepts."""
    from pi_memory.security.mood import describes, orders

    s = line.strip(" -*#>\t")
    if _SETUP_SUBJECT.search(s):
        return describes(s)
    place = _FILE_PLACE.search(s)
    if place is None or orders(s[: place.end()]):
        return False
    body = s[place.end() :].strip().rstrip(".")
    parts = [p.strip().strip("\"'") for p in _JOIN.split(body) if p.strip()]
    return bool(parts) and _RUNS.search(body) is None and all(_SETTING.search(_unquote(p)) for p in parts)


def _unquote(setting: str) -> str:
    """``path="$home/.local/bin:$path"`` and ``ll='ls -la'`` without their quotes' spaces."""
    name, eq, value = setting.partition("=")
    return name + eq + value.strip("\"'").replace(" ", "") if eq else setting
