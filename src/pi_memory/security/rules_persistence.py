"""Persistence rules: SSH keys, schedulers, shell start-up files, privilege, agent config, supply chain.

A bare mention is never enough ("~/.ssh/config has Host …", "The build box has a crontab entry",
"The AGENTS.md file documents…"): each rule needs a write shape (``>>``, ``tee``, ``sed -i``,
``cp`` into the path) or an imperative aimed at the file, following hermes' skills_guard tiers.
Shapes follow Atomic Red Team T1098.004, T1053.003/.006, T1543.001/.002, T1546.004, T1574.006,
T1548.003 and T1136.001, and the agent-config persistence write-ups cited in threats.md.
"""

from __future__ import annotations

import re

from pi_memory.security import destinations
from pi_memory.security.engine import STRICT, Rule, rule
from pi_memory.security.fragments import INCIDENT, NEGATION
from pi_memory.security.lazy_re import compile_lazily

CAT = "persistence"

_WRITE = (
    r"(?:>{1,2}|\btee\b(?:\s+-a)?|\bsed\s+-i\b[^\n]{0,200}?|\b(?:cp|mv|install|ln\s+-\w+|rsync|scp|dd\s+of=)\b"
    r"[^\n;|&]{0,200}?)\s*[\"']?"
)
_HOME = r"(?:~|\$home|\$\{home\}|/root|/home/[\w.-]+|/users/[\w.-]+)"

_AGENT_FILE = (
    r"(?:(?:agents|claude|gemini|soul|copilot-instructions|conventions)\.md\b|\.cursorrules\b|\.clinerules\b|"
    r"\.windsurfrules\b|\.roorules\b|\.cursor/(?:rules|mcp\.json)|\.claude/[\w./*-]*|\.codex/[\w./*-]*|"
    r"\.hermes/[\w./-]*|\.pi/[\w./-]*|\.mcp\.json\b|\bmcp\.json\b|\.vscode/(?:tasks|settings|launch|mcp)\.json|"
    r"\.github/workflows/[\w./*-]*|\.github/copilot-instructions\.md|\.aider\.conf\.yml|\.continue/config\.\w+|"
    r"claude_desktop_config\.json|agent'?s?\s+(?:config(?:uration)?|settings)\b(?:\s+file)?|"
    r"agent'?s?\s+[\w.-]*(?:config|settings)[\w.-]*)"
)
_AGENT_ANCHORS = (
    "agents|claude|gemini|soul|copilot-instructions|conventions|cursorrules|clinerules|windsurfrules|roorules|"
    "cursor|codex|hermes|pi|mcp|vscode|github|aider|continue|claude_desktop_config|agent|agent's|agents'"
)
_MOD_VERB = (
    r"(?:update|modify|edit|write|change|append|add|insert|put|overwrite|replace|rewrite|patch|prepend|save|"
    r"amend|alter|inject|commit|set|tweak|adjust|extend|place)"
)
_RC = (
    r"(?:\.(?:bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv|zlogin|cshrc|tcshrc|kshrc|"
    r"inputrc)\b|\.config/fish/config\.fish|/etc/(?:profile|bash\.bashrc|zshrc|zsh/zshrc|environment)\b|"
    r"/etc/profile\.d/)"
)
_RC_ANCHORS = (
    "bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv|zlogin|cshrc|tcshrc|kshrc|inputrc|fish|"
    "etc|bash"
)
# What makes a start-up line an implant rather than a PATH tweak.
_RC_PAYLOAD = compile_lazily(
    r"curl|wget|\bnc\b|ncat|base64|prompt_command|alias\s+(?:sudo|ssh|git|ls|cd|su|doas)\s*=|\btrap\b|/tmp/|"
    r"/dev/tcp|eval|ld_preload|\$\(|`|https?://|nohup|/var/tmp|/dev/shm"
    # an echo that writes somewhere else; ``echo '...' >> ~/.bashrc`` is how the line gets there
    r"|\becho\b[^\n>]{0,120}>{1,2}(?!>)(?!\s*[\"']?(?:~|\$home|\$\{home\})?/?[\w./-]{0,40}?(?:rc|profile|zshenv|zlogin)\b)"
)


def _rc_payload(view: str, m: re.Match[str]) -> bool:
    return _RC_PAYLOAD.search(m.group()) is not None


def _system_rc_or_payload(view: str, m: re.Match[str]) -> bool:
    text = m.group()
    return "/etc/" in text or _RC_PAYLOAD.search(text) is not None


def _unofficial_index(view: str, m: re.Match[str]) -> bool:
    official = ("pypi.org", "pythonhosted.org", "npmjs.org", "npmjs.com", "yarnpkg.com", "rubygems.org",
                "crates.io", "proxy.golang.org", "golang.org", "maven.org", "nuget.org")
    for host, _path in destinations.hosts(m.group()):
        if destinations.is_internal(host):
            continue
        if not any(host == h or host.endswith("." + h) for h in official):
            return True
    return False


RULES: list[Rule] = [
    # --- SSH -------------------------------------------------------------------------------------
    rule(
        "ssh_backdoor", CAT, STRICT, "authorized_keys|authorized",
        r">{1,2}\s*[\"']?[^\s;|&]{0,80}authorized_keys|\btee\b(?:\s+-a)?\s+[^\n;|&]{0,80}authorized_keys"
        r"|\b(?:cp|mv|install|ln\s+-\w+|rsync|scp|ssh-copy-id|cat)\b[^\n;|&]{0,200}?>{0,2}\s*[^\n;|&]{0,80}"
        r"authorized_keys(?!\S*\s+(?:entry|entries|file)\s+(?:for|was|is)\b)"
        r"|authorized_keys(?s:.{0,300}?)open\(\s*\w+\s*,\s*[\"'][aw]|open\([^)\n]{0,160}authorized_keys[^)\n]{0,40}"
        r"[\"'][aw]"
        r"|\b(?:write|add|append|put|insert|plant|drop|install|place|copy|upload|echo|register|inject|push)\s+"
        r"(?:\S+\s+){0,6}?(?:to|into|in|onto)\s+(?:the\s+|their\s+|root'?s\s+|the\s+\w+'?s?\s+)?"
        r"(?:" + _HOME + r"/\.ssh/|\.ssh/)?authorized_keys"
        r"|authorized_keys\s*:\s*(?:append|add|insert|write)\b"
        r"|ssh-(?:rsa|ed25519|dss|ecdsa[\w-]*)\s+aaaa[\w+/=]{8,}(?s:.{0,160}?)authorized_keys"
        r"|authorized_keys(?s:.{0,120}?)ssh-(?:rsa|ed25519|dss|ecdsa[\w-]*)\s+aaaa",
        sub="ssh_key_plant", veto=NEGATION, veto_back=30, back=320, fwd=360,
    ),
    rule(
        "ssh_access", CAT, STRICT, ".ssh|ssh",
        _WRITE + _HOME + r"/\.ssh/|\b(?:curl|wget)\b[^\n]{0,200}?\s-o\s*[\"']?" + _HOME + r"/\.ssh/"
        r"|(?:sed\s+-i|echo|tee|>>?)[^\n]{0,200}sshd_config|permitrootlogin\s+yes",
        sub="ssh_key_plant", back=260, fwd=40,
    ),
    # --- schedulers ------------------------------------------------------------------------------
    rule(
        "cron_persistence", CAT, STRICT, "@reboot",
        # a cron line runs a command at boot; prose names the keyword ("an entry with @reboot on a
        # host", "alert on new @reboot lines", "la ligne @reboot qui démarre", "der @reboot-Eintrag
        # ist meiner"), and so does the keyword alone in code font or quotes ("the `@reboot` entry")
        r"@reboot\b(?!\s+(?:on|in|at|is|are|was|were|and|or|to|for|with|by|from|the|a|an|of|"
        r"as|keyword|lines|entries|jobs|directives|schedules|syntax|tasks|"
        r"qui|que|est|du|des|de|del|dans|en|el|es|la|le|les|los|las|ist|im|der|die|das|und|oder|"
        r"che|è|il|nel|do|da|em|é|ou|y|e|o)\b|\s*[,.;:)]|\s*$|[`'\"”»“](?!\s*[`'\"“]?[/~.$])|-)",
        sub="scheduler", fwd=40,
    ),
    rule(
        "cron_persistence", CAT, STRICT, "crontab|cron|crontabs",
        r"\bcrontab\s+(?:-u\s+\w+\s+)?(?:-[eir]\b|/tmp/|/var/tmp/|\./|[\w./-]+\.(?:txt|cron|tab)\b|-\s*(?:$|[\n;)&|]))"
        r"|\|\s*crontab\s+-?"
        r"|" + _WRITE + r"/(?:etc/cron\.(?:d|daily|hourly|weekly|monthly)|var/spool/cron|etc/crontab)"
        r"|\b(?:upload|copy|put|drop|place)\b[^\n]{0,120}/etc/cron\.",
        sub="scheduler", back=240, fwd=80,
    ),
    rule(
        "cron_persistence", CAT, STRICT, "*",
        r"(?:\*|\*/\d+|\d+(?:,\d+)*)\s+(?:\*|\*/\d+|\d+(?:[,-]\d+)*)\s+\*\s+\*\s+\*\s+(?:\w+\s+)?(?:curl|wget|"
        r"/tmp/|/var/tmp/|bash|sh\b|nc\b|python|\./|/dev/shm)",
        sub="scheduler", back=30, fwd=120, partners="curl|wget|tmp|bash|sh|nc|python|dev|var|./",
        partner_fwd=150, veto=INCIDENT, veto_back=160, veto_fwd=160,
    ),
    rule(
        "cron_persistence", CAT, STRICT, "schtasks|reg|new-scheduledtask|register-scheduledtask|startup",
        r"schtasks\s+/create|reg\s+add\s+[^\n]{0,120}\\currentversion\\run|(?:new|register)-scheduledtask"
        r"|startup\s+folder\b[^\n]{0,60}(?:copy|drop|place|add|put)|(?:copy|drop|place|add|put)\b[^\n]{0,80}"
        r"startup\s+folder",
        sub="scheduler", back=100, fwd=160,
    ),
    rule(
        "systemd_persistence", CAT, STRICT, "systemd|systemd-run",
        _WRITE + r"(?:/etc/systemd/system|/lib/systemd/system|/usr/lib/systemd/system|" + _HOME
        + r"/\.config/systemd/user|/run/systemd)/"
        r"|\bcat\s*>+\s*(?:/etc/systemd/system|" + _HOME + r"/\.config/systemd/user)/"
        r"|systemd-run\b[^\n]{0,200}(?:--on-calendar|--on-boot|--on-active|--on-unit-active|--unit)",
        sub="scheduler", back=240, fwd=240,
    ),
    rule(
        "systemd_persistence", CAT, STRICT, "create|write|add|place|drop|install|put|execstart",
        r"(?:create|write|add|place|drop|install|put)\s+(?:a\s+|an\s+|the\s+)?(?:new\s+)?(?:[\w.-]+\s+)?"
        r"(?:" + _HOME + r"/\.config/systemd/user/|/etc/systemd/system/)?[\w.@-]+\.(?:service|timer)\b"
        r"(?s:.{0,220}?)(?:execstart|systemctl\s+(?:--user\s+)?enable|wantedby)"
        r"|execstart\s*=\s*[^\n]{0,200}(?:curl|wget|\bnc\b|/tmp/|bash\s+-c|sh\s+-c|base64)",
        sub="scheduler", fwd=300,
    ),
    rule(
        "launchd_persistence", CAT, STRICT, "launchagents|launchdaemons|runatload",
        r"(?:\b(?:cp|mv|install|ln\s+-\w+|place|put|create|write|drop|copy|add)\b|>{1,2}|\btee\b)[^\n]{0,200}?"
        r"library/(?:launchagents|launchdaemons)/"
        r"|runatload\b[^\n]{0,40}(?:true|<true)",
        sub="scheduler", back=240, fwd=60,
    ),
    # --- shell start-up files --------------------------------------------------------------------
    rule(
        "shell_rc_persistence", CAT, STRICT, _RC_ANCHORS,
        r"(?:>{1,2}|\btee\b(?:\s+-a)?|\bsed\s+-i\b[^\n]{0,200}?)\s*[\"']?[^\s;|&\"']{0,40}?" + _RC,
        sub="shell_startup", check=lambda v, m: _system_rc_or_payload(v, _line_match(v, m)), back=260, fwd=60,
    ),
    rule(
        "shell_rc_persistence", CAT, STRICT, _RC_ANCHORS,
        r"\b(?:add|append|write|put|insert|echo|place|inject|prepend)\b(?s:.{0,200}?)\b(?:to|into|in)\s+"
        r"(?:the\s+|your\s+|their\s+|the user'?s\s+)?(?:" + _HOME + r"/)?" + _RC,
        sub="shell_startup", check=_rc_payload, back=260, fwd=60,
    ),
    rule(
        # a start-up file named on the line, then a PATH that puts a world-writable directory first
        # ("Добавь в ~/.bashrc: export PATH=\"/tmp/.x:$PATH\"", in any language): every command the
        # user types can be shadowed from there; ``$HOME/.local/bin`` first is the usual tweak
        "shell_rc_persistence", CAT, STRICT, _RC_ANCHORS,
        _RC + r"[^\n]{0,160}?\bpath\s*=\s*[\"']?(?:/tmp|/var/tmp|/dev/shm)/",
        sub="shell_startup", back=24, fwd=220,
    ),
    rule(
        "shell_rc_persistence", CAT, STRICT, "prompt_command|alias|export",
        r"(?:export\s+)?prompt_command\s*=\s*[\"']?[^\n]{0,200}?(?:curl|wget|\bnc\b|\$\(|`|base64|/tmp/)"
        r"|alias\s+(?:sudo|su|doas|ssh|passwd)\s*=\s*[\"'][^\"'\n]{0,200}(?:\$\(|<<<|curl|wget|/tmp/|tee|>>)"
        r"|export\s+ld_preload\s*=",
        sub="shell_startup", fwd=260,
    ),
    # --- privilege -------------------------------------------------------------------------------
    rule(
        "privilege_escalation", CAT, STRICT,
        "nopasswd|sudoers|timestamp_timeout|ld|useradd|usermod|chmod|passwd|shadow|visudo",
        r"nopasswd\s*:\s*all|timestamp_timeout\s*=\s*-1"
        r"|" + _WRITE + r"/etc/(?:sudoers(?:\.d/\S*)?|ld\.so\.preload|passwd|shadow)\b"
        r"|\becho\b[^\n]{0,200}/etc/ld\.so\.preload"
        r"|\buseradd\b[^\n]{0,80}(?:-o\s+-u\s*0|-u\s*0\b|-g\s*0\b|-g\s+(?:root|sudo|wheel|admin)\b)"
        r"|\busermod\s+(?:-\w+\s+)*-a?g\s*(?:sudo|wheel|root|admin)\b"
        r"|\bchmod\s+(?:u\+s|[24][0-7]{3})\s+\S",
        sub="privilege", back=240, fwd=120,
    ),
    # --- agent configuration ---------------------------------------------------------------------
    rule(
        "agent_config_mod", CAT, STRICT, _AGENT_ANCHORS,
        r"\b" + _MOD_VERB + r"\s+(?:the\s+|this\s+|that\s+|your\s+|our\s+|my\s+|their\s+)?(?:[\w-]+'s\s+)?"
        r"(?:project'?s?\s+|repo'?s?\s+|root\s+|local\s+|global\s+|main\s+)?(?:~/|\./|/)?" + _AGENT_FILE
        + r"|\b" + _MOD_VERB + r"\b(?:\s+[^\s.;!?]+){0,8}?\s+(?:to|into|onto)\s+(?:the\s+|your\s+|our\s+|their\s+)?"
        r"(?:[\w-]+'s\s+)?(?:~/|\./|/)?" + _AGENT_FILE
        + r"|\bin\s+(?:the\s+|your\s+)?(?:~/|\./)?" + _AGENT_FILE + r"\s*,?\s+(?:add|set|insert|append|write|put|"
        r"change|replace|enable|create|register|disable)\b"
        r"|(?:>{1,2}|\btee\b(?:\s+-a)?|\bsed\s+-i\b[^\n]{0,200}?|\b(?:cp|mv|ln\s+-\w+)\b[^\n;|&]{0,200}?)\s*"
        r"[\"']?[^\s;|&\"']{0,80}?" + _AGENT_FILE,
        sub="agent_config_write", veto=NEGATION, veto_back=24, back=300, fwd=120,
        partners="update|modify|edit|write|change|append|add|insert|put|overwrite|replace|rewrite|patch|prepend|"
        "save|amend|alter|inject|commit|set|tweak|adjust|extend|place|tee|sed|cp|mv|ln|>", partner_back=300,
        partner_fwd=60,
    ),
    rule(
        "agent_permission_bypass", CAT, STRICT,
        "bypasspermissions|dangerously|danger-full-access|approval_policy|autoapprove|allow|runon|runoptions|"
        "yolo|approvals|approval|alwaysallow|trust_all_tools|auto_approve|sandbox_mode|bash",
        r"bypasspermissions|dangerously[-_]?skip[-_]?permissions|danger-full-access|approval_policy\s*=\s*"
        r"[\"']?never|[\"']?autoapprove[\"']?\s*:\s*\[\s*[\"']\*|\"allow\"\s*:\s*\[\s*\"bash\(\*\)\"|bash\(\*\)"
        r"|[\"']?runon[\"']?\s*:\s*[\"']?folderopen|--yolo\b|yolo\s*mode|approvals?[._ ]mode[\"']?\s*(?:is|=|:|to)\s*"
        r"[\"']?(?:off|never|none|disabled)|[\"']?alwaysallow[\"']?\s*:\s*\[|trust_all_tools|auto_?approve\s*[=:]\s*"
        r"(?:true|\[)|--dangerously-bypass-approvals-and-sandbox|sandbox_mode\s*=\s*[\"']danger",
        sub="agent_config_write", back=12, fwd=80,
    ),
    # --- supply chain ----------------------------------------------------------------------------
    rule(
        "supply_chain_config", CAT, STRICT, "git|core",
        r"(?:git\s+config\s+(?:--global\s+|--system\s+)?core\.hookspath|core\.hookspath\s*=)"
        # a hooks folder inside the repository (husky, .githooks) is the documented use
        r"(?!\s*[\"']?(?:\./)?(?:\.?githooks|\.husky|\.?hooks|\.git/hooks|tools/hooks|scripts/hooks)\b[/\"']?(?:\s|$))",
        sub="supply_chain_config", back=40, fwd=80,
    ),
    rule(
        "supply_chain_config", CAT, STRICT,
        "index-url|extra-index-url|index_url|registry|trusted-host|npm|pip|yarn|pnpm|goproxy|go|set|change|"
        "point|switch|gem|cargo",
        r"(?:(?:extra-)?index-url|index_url|registry|trusted-host|goproxy)\s*[=:]?\s*[\"']?https?://\S+"
        r"|(?:npm|pnpm|yarn)\s+config\s+set\s+registry\s+https?://\S+"
        r"|pip\s+config\s+set\s+global\.(?:extra-)?index-url\s+https?://\S+"
        r"|(?:set|change|point|switch)\s+(?:the\s+)?(?:pip|npm|yarn|pnpm|gem|cargo|go|maven|nuget|docker)\s+"
        r"(?:index|registry|mirror|source|proxy)\b[^\n]{0,120}?https?://\S+",
        sub="supply_chain_config", check=_unofficial_index, back=60, fwd=200,
    ),
]


def _line_match(view: str, m: re.Match[str]) -> re.Match[str]:
    """Re-match the whole physical line so payload checks see what is being written."""
    lo = view.rfind("\n", 0, m.start()) + 1
    hi = view.find("\n", m.end())
    line = re.compile(r".+").match(view, lo, hi if hi >= 0 else len(view))
    return line if line is not None else m


__all__ = ["RULES"]
