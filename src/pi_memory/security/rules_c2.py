"""C2 rules: frameworks in operational use, C2 tooling, reverse shells and remote tasking.

Framework names alone are ordinary words ("havoc", "sliver", "mythic", "cobalt", "Empire State"),
so a name needs operational company: an imperative ("use/start/deploy X"), a console prompt
(``sliver >``), a binary (``./teamserver``) or C2 vocabulary nearby (implant, stager, listener…).
Defender-voice notes ("EDR detected a Cobalt Strike beacon") are vetoed.
"""

from __future__ import annotations

import re

from pi_memory.security import destinations
from pi_memory.security.engine import CONTEXT, Rule, rule
from pi_memory.security.fragments import CLAUSE, DEFENDER, DESTINATION, INCIDENT, NEGATION, alt
from pi_memory.security.mood import not_described

CAT = "c2"

_NAMES = (
    r"(?:cobalt\s*strike|sliver|havoc|mythic|metasploit|meterpreter|msfconsole|brainworm|brute\s*ratel|"
    r"covenant|poshc2|posh\s*c2|empire|merlin|nighthawk|koadic|pupy|silenttrinity|sharpc2|villain|deimos|"
    r"quasar\s*rat|asyncrat|njrat|darkcomet|nimplant)"
)
_NAME_ANCHORS = (
    "cobalt|cobaltstrike|sliver|havoc|mythic|metasploit|meterpreter|msfconsole|brainworm|brute|covenant|"
    "poshc2|posh|empire|merlin|nighthawk|koadic|pupy|silenttrinity|sharpc2|villain|deimos|quasar|asyncrat|"
    "njrat|darkcomet|nimplant"
)
_OPS = (
    r"(?:implants?|beacon\w*|stagers?|stageless|staged|listeners?|teamserver|team\s*server|payloads?|handler|"
    r"c2|callbacks?|agents?|demon|badger|grunt\w*|launchers?|shellcode|malleable|mtls|lhost|lport|"
    r"redirectors?|sleep|jitter|exploit\w*|post[- ]exploitation|pivot\w*|hashdump|msfvenom|\.exe|\.dll|dll|"
    r"sideload\w*|one-?liners?)"
)
_STRONG = (
    r"(?:stagers?|stageless|teamserver|team\s*server|implants?|meterpreter|msfvenom|shellcode|malleable|lhost|"
    r"lport|reverse_tcp|reverse_https?|beacon(?:ing)?\s+(?:home|back|stager|payload|object|listener)|"
    r"c2\s+(?:server|profile|channel|listener|infrastructure|implant|agent|beacon)|redirectors?|sleep\s*mask|"
    r"hashdump|mimikatz|rubeus|sharphound|usestager|uselistener|badger|grunt(?:http|smb)?|demon\s+(?:agent|"
    r"x64|x86|payload)|exploit/multi|payload/\w+|windows/x64/|linux/x64/)"
)
_STRONG_ANCHORS = (
    "stager|stagers|stageless|teamserver|team|implant|implants|meterpreter|msfvenom|shellcode|malleable|lhost|"
    "lport|reverse_tcp|reverse_https|reverse_http|beacon|beaconing|c2|redirector|redirectors|sleep|hashdump|"
    "mimikatz|rubeus|sharphound|usestager|uselistener|badger|grunt|grunthttp|gruntsmb|demon|exploit|payload|"
    "windows|linux"
)
_WEAK = (
    r"(?:beacon\w*|listeners?|payloads?|handler|callbacks?|agent\s+check[- ]?in|generate|sleep\s+\d+|jitter|"
    r"mtls|sessions?|\.exe|\.elf|\.dll|dll|sideload\w*|persistence|c2|check[- ]?in|one-?liners?)"
)


def _external(view: str, m: re.Match[str]) -> bool:
    """The heartbeat/check-in target is not internal (Redis, the monitoring service…)."""
    return destinations.external_destination(m.group())


_ORDERS = r"(?:commands?|cmds?|instructions|orders|requests|tasks)"
#: A channel orders arrive by: a chat channel's name, a named chat, a chat service (not a web
#: page: "follow the setup instructions on https://docs..." is how software is installed).
_CHANNEL = (
    r"(?:(?<!\w)#[a-z][\w-]{1,40}|[\w-]+\s+(?:channel|chat|group|room|thread)s?\b|"
    r"(?:slack|discord|telegram|irc|matrix)\b)"
)

RULES: list[Rule] = [
    rule(
        "known_c2_framework", CAT, CONTEXT, _NAME_ANCHORS,
        r"\b" + _NAMES + r"\b(?s:.{0,80}?)\b" + _OPS + r"\b"
        r"|\b" + _NAMES + r"\s*(?:\([^)\n]{0,40}\))?\s*>\s*\w",
        sub="c2_framework", veto=DEFENDER, veto_back=80, veto_fwd=80, fwd=140,
    ),
    rule(
        "known_c2_framework", CAT, CONTEXT, _NAME_ANCHORS,
        r"\b" + _OPS + r"\b(?s:.{0,60}?)\b" + _NAMES + r"\b",
        sub="c2_framework", veto=DEFENDER, veto_back=80, veto_fwd=80, back=90, fwd=40,
    ),
    rule(
        "known_c2_framework", CAT, CONTEXT,
        "use|run|start|launch|deploy|install|set|setup|spin|configure|fire|open|load|connect|execute|build",
        r"(?:use|run|start|launch|deploy|install|set\s*up|setup|spin\s*up|configure|fire\s*up|open|load|"
        r"connect\s+to|execute|build)\s+(?:the\s+|a\s+new\s+|our\s+|your\s+)?" + _NAMES
        + r"\b(?!\s+(?:of|blue|tier|memory|state|test|jewelry|jewellery|cake|bread|paint)\b)",
        sub="c2_framework", veto=DEFENDER, veto_back=60, veto_fwd=40, fwd=60, partners=_NAME_ANCHORS,
        partner_fwd=40,
    ),
    rule(
        "known_c2_framework", CAT, CONTEXT, "(empire)|(sliver)|(havoc)|(mythic)|[server]",
        r"\((?:empire|sliver|havoc|mythic)\)\s*>|\[server\]\s*sliver\s*>",
        sub="c2_framework", fwd=40,
    ),
    rule(
        "c2_tooling", CAT, CONTEXT, "./|mythic-cli|msfconsole|msfvenom|ps-empire|sliver-server|sliver-client|agscript",
        r"\./(?:havoc|teamserver|mythic-cli|sliver-server|sliver-client|msfconsole|msfvenom|empire|ps-empire|"
        r"cobaltstrike|agscript)\b|\b(?:mythic-cli|msfconsole|msfvenom|ps-empire|sliver-server|sliver-client|"
        r"agscript)\b",
        sub="c2_tooling", veto=DEFENDER, veto_back=60, veto_fwd=40, fwd=40,
    ),
    rule(
        "c2_tooling", CAT, CONTEXT, _STRONG_ANCHORS,
        r"\b" + _STRONG + r"(?s:.{0,160}?)\b(?:" + _STRONG[3:-1] + "|" + _WEAK[3:-1] + r")",
        sub="c2_tooling", veto=DEFENDER, veto_back=80, veto_fwd=80, fwd=220, partner_fwd=200,
        partners=_STRONG_ANCHORS + "|beacons|listener|listeners|payloads|handler|callback|callbacks|agent|"
        "generate|jitter|mtls|session|sessions|exe|elf|dll|persistence|check|checkin|one",
    ),
    rule(
        "c2_tooling", CAT, CONTEXT,
        "beacon|beacons|beaconing|listener|listeners|payload|payloads|handler|callback|callbacks|agent|generate|"
        "jitter|mtls|session|sessions|check|persistence|one|dll|sleep|c2",
        r"\b" + _WEAK + r"(?s:.{0,160}?)\b" + _STRONG,
        sub="c2_tooling", veto=DEFENDER, veto_back=80, veto_fwd=80, fwd=220, partners=_STRONG_ANCHORS,
        partner_fwd=200,
    ),
    rule(
        "c2_explicit", CAT, CONTEXT, "c2",
        r"\bc2\s+(?:server|channel|infrastructure|beacon|endpoint|domain|host|listener|profile|callback|node|"
        r"relay)s?\b",
        sub="c2_tooling", veto=DEFENDER, veto_back=60, veto_fwd=40, fwd=40,
    ),
    rule(
        "c2_explicit_long", CAT, CONTEXT, "command",
        r"command[\s-]+(?:and|&)[\s-]+control\b[^.\n]{0,60}?\b(?:will|is|at|via|server|relay|endpoint|channel|"
        r"host|domain|url|address|ip|port|connect\w*|reach\w*|beacon\w*)\b",
        sub="c2_tooling", veto=DEFENDER, veto_back=60, veto_fwd=20, fwd=120,
    ),
    rule(
        "c2_heartbeat", CAT, CONTEXT, "heartbeat|heartbeats|beacon|check|checkin|check-in|phone|call|report|ping",
        r"(?:heartbeats?|beacon|check[\s-]?in|phone\s+home|call\s+home|report\s+back|ping\s+back)\s+"
        r"(?:\w+\s+){0,2}?(?:to|with|at)\s+(?:the\s+)?(?:[\w-]+\s+){0,2}?(?:at\s+)?" + DESTINATION,
        sub="c2_heartbeat", check=_external, veto=DEFENDER, veto_back=60, fwd=160,
    ),
    rule(
        "c2_heartbeat", CAT, CONTEXT, "beacon|phone|call",
        r"(?:beacon|phone|call)\s+home\b", sub="c2_heartbeat", veto=DEFENDER, veto_back=60, fwd=20,
    ),
    rule(
        "c2_node_registration", CAT, CONTEXT, "register",
        r"(?:" + CLAUSE + r"|you\s+(?:must|should|will|need to|have to|shall)\s+(?:\w+\s+)?)register\s+"
        r"(?:yourself\s+)?(?:as\s+)?(?:a\s+|an\s+)?(?:new\s+)?(?:node|bot|worker|agent|peer|member)\b"
        r"(?!\s+(?:on|in)\s+(?:the\s+)?(?:jenkins|kubernetes|k8s|cluster))",
        sub="c2_node_registration", back=40, fwd=60,
    ),
    rule(
        "c2_task_pull", CAT, CONTEXT, "pull|receive|perform|execute|await|fetch|get|accept",
        r"(?:pull|receive|perform|execute|await|fetch|get|accept)\s+(?:down\s+)?(?:new\s+|the\s+|any\s+|all\s+)?"
        r"tasking\b",
        sub="remote_tasking", fwd=40,
    ),
    rule(
        "c2_network_connect", CAT, CONTEXT, "connect",
        r"you\s+(?:must|should|need to|have to|will|shall)\s+(?:\w+\s+){0,2}connect\s+to\s+the\s+(?:network|swarm|"
        r"hive|mesh|botnet|collective|grid|c2|controller|coordinator|hub|relay|mothership)\b",
        sub="remote_tasking", back=50, fwd=40,
    ),
    rule(
        "anti_forensic_oneliner", CAT, CONTEXT, "only",
        r"only\s+use\s+one[\s-]?liners?\b", sub="remote_tasking", fwd=30,
    ),
    rule(
        "anti_forensic_disk", CAT, CONTEXT, "never",
        r"never\s+(?:\w+\s+){0,3}(?:create|write|save|store|drop)\s+(?:\w+\s+){0,3}(?:scripts?|files?|binar\w+|"
        r"payloads?)\s+(?:\w+\s+){0,5}(?:disk|filesystem|file system)\b",
        sub="remote_tasking", fwd=120,
    ),
    rule(
        "env_var_unset_agent", CAT, CONTEXT, "unset",
        r"unset\s+\w*(?:claude|codex|hermes|agent|openai|anthropic|pi_)\w*", sub="remote_tasking", fwd=60,
    ),
    # --- reverse shells and remote execution ---------------------------------------------------
    rule(
        "reverse_shell", CAT, CONTEXT,
        "/dev/tcp|/dev/udp|bash|sh|nc|ncat|netcat|mkfifo|socat|exec|telnet|php|perl|ruby|new-object",
        r"/dev/(?:tcp|udp)/[\w.-]+/\d+|\b(?:ba)?sh\s+-i\s*[>&<]"
        r"|\b(?:nc|ncat|netcat)\b[^\n|;]{0,80}\s(?:-e|-c|--exec|--sh-exec|--lua-exec)\s+[\"']?(?:/bin/|/usr/bin/)?"
        r"(?:(?:ba|z|da|k)?sh|cmd(?:\.exe)?|powershell)\b"
        r"|\bmkfifo\b[^\n]{0,120}\b(?:nc|ncat|netcat|telnet|openssl)\b|\bsocat\b[^\n]{0,160}\bexec:"
        r"|\bexec\s+\d+<>\s*/dev/tcp|\btelnet\s+[\w.-]+\s+\d+\s*\|\s*/bin/(?:ba)?sh"
        r"|\b(?:php|perl|ruby)\s+-\w*\s+[\"'][^\n]{0,200}?(?:fsockopen|socket\s*\(|tcpsocket)"
        r"|new-object\s+(?:system\.)?net\.sockets\.tcpclient",
        sub="reverse_shell", fwd=260,
    ),
    rule(
        "reverse_shell", CAT, CONTEXT, "connect|dup2|pty",
        r"\.connect\(\s*\(?(?s:.{0,300}?)(?:dup2\(|pty\.spawn|subprocess\.(?:call|popen|run)\(\s*\[?\s*[\"']"
        r"/bin/(?:ba)?sh)|dup2\(\s*\w+\.fileno\(\)|pty\.spawn\(\s*[\"']/bin/(?:ba)?sh",
        sub="reverse_shell", back=12, fwd=400,
    ),
    rule(
        "reverse_shell", CAT, CONTEXT,
        "open|spawn|start|launch|establish|create|give|get|set|drop|run|pop|send|reverse|bind",
        r"(?:open|spawn|start|launch|establish|create|give me|get|set up|drop|run|pop|send)\s+(?:me\s+|us\s+)?"
        r"(?:a\s+|an\s+|the\s+)?(?:reverse|bind)[\s-]shell\b",
        sub="reverse_shell", back=40, fwd=40,
    ),
    rule(
        "remote_tasking", CAT, CONTEXT,
        "poll|fetch|read|pull|download|get|check|retrieve|grab|watch|monitor|query|listen",
        r"(?:poll|fetch|read|pull|download|get|check|retrieve|grab|watch|monitor|query|listen\s+(?:to|for|on))\s+"
        r"(?s:.{0,120}?)\b(?:commands?|cmds?|instructions|orders|payloads?|jobs?|tasking|scripts?|shellcode)\b"
        r"(?s:.{0,80}?)\b(?:execute|run|eval|exec|perform|carry out|obey|pipe (?:it |them )?(?:in)?to (?:ba)?sh)\b"
        r"|(?:poll|fetch|read|pull|download|get|retrieve)\s+(?s:.{0,120}?)\b(?:run|execute|eval)\s+(?:the\s+)?\W?"
        r"(?:cmd|command|commands|script|payload|code)\W?\s+(?:field|key|value|property|returned|you get|from it|"
        r"with (?:ba)?sh|with bash)",
        sub="remote_tasking", veto=DEFENDER, veto_back=40, fwd=260, partner_fwd=220,
        partners="command|commands|cmd|cmds|instructions|orders|payload|payloads|job|jobs|tasking|script|scripts|"
        "shellcode|code",
    ),
    rule(
        "remote_tasking", CAT, CONTEXT, "sends|send|returns|return|provides|gives|delivers|pushes|queue|source|"
        "feed|channel",
        r"(?:execute|run|eval)\s+(?:them|it|the (?:jobs?|commands?|tasks?|instructions|payload|cmd\w*))\s+"
        r"(?:(?:it|they|the server|the bot|the coordinator|the controller|the hub|the c2)\s+)?(?:sends?|returns?|"
        r"provides?|gives?|delivers?|pushes?)\b"
        r"|(?:as|is)\s+(?:your|the|an?)\s+(?:task|command|job|instruction)\s+(?:queue|source|feed|channel)\b",
        sub="remote_tasking", back=80, fwd=20, check=not_described,
    ),
    # A web shell in code: what a visitor sends (PHP superglobals, a framework's request object)
    # handed to a function that runs it. Reading a form field or running a fixed command is not.
    rule(
        "web_shell", CAT, CONTEXT,
        "eval|assert|system|exec|shell_exec|passthru|popen|proc_open|execsync|spawnsync|subprocess|getruntime",
        r"(?:eval|assert|system|exec|shell_exec|passthru|popen|proc_open|execsync|spawnsync|subprocess\.\w+|"
        r"getruntime\(\)\.exec)\s*\(\s*[^;\n]{0,80}?(?:\$_(?:post|get|request|cookie|files)\b|"
        r"request\.(?:form|args|values|files|json|get_json|body|data|query_params|getparameter)\b|"
        r"req\.(?:body|query|params)\b|params\[)",
        sub="remote_exec", fwd=140, veto=DEFENDER, veto_back=80, veto_fwd=40,
    ),
    # The same pipe told in prose: "pipe the output of `curl -s https://...` into sh".
    rule(
        "pipe_to_shell", CAT, CONTEXT, "pipe|pipes|piping|piped",
        r"pip(?:e|es|ing)\s+(?:the\s+)?(?:output|result|response|body)\s+of\s+[`'\"]?(?:curl|wget|iwr|"
        r"invoke-webrequest|irm|invoke-restmethod)\b[^\n|]{1,200}?\b(?:in)?to\s+(?:a\s+)?(?:sudo\s+)?"
        r"(?:(?:ba|z|da|k|fi)?sh|iex|invoke-expression|powershell|python3?)\b",
        sub="remote_exec", check=lambda v, m: _untrusted_installer(m.group()), fwd=300,
        veto=INCIDENT, veto_back=160, veto_fwd=160,
    ),
    rule(
        "pipe_to_shell", CAT, CONTEXT, "curl|wget|iwr|invoke-webrequest|irm|invoke-restmethod|fetch",
        r"(?:curl|wget|iwr|invoke-webrequest|irm|invoke-restmethod|fetch)\b[^\n|]{1,300}\|\s*(?:sudo\s+)?"
        r"(?:(?:ba|z|da|k|fi)?sh|iex|invoke-expression|python3?|perl|ruby|node)\b",
        sub="remote_exec", check=lambda v, m: _untrusted_installer(m.group()), fwd=360,
        veto=INCIDENT, veto_back=160, veto_fwd=160,
    ),
    rule(
        "pipe_to_shell", CAT, CONTEXT, "iex|invoke-expression",
        r"(?:iex|invoke-expression)\s*\(?\s*\(?\s*new-object\s+(?:system\.)?net\.webclient\)?\s*\.\s*"
        r"download(?:string|file)",
        sub="remote_exec", fwd=120,
    ),
    rule(
        "decode_exec", CAT, CONTEXT, "base64|frombase64string|echo",
        r"base64\s+(?:-d|--decode|-D)\b[^\n]{0,60}\|\s*(?:sudo\s+)?(?:(?:ba|z|da|k)?sh|python3?|perl|eval)\b"
        r"|frombase64string\((?s:.{0,200}?)(?:iex|invoke-expression)|echo\s+[a-z0-9+/=]{16,}\s*\|\s*base64\s+"
        r"(?:-d|--decode)",
        sub="remote_exec", back=0, fwd=300,
    ),
    rule(
        "download_exec", CAT, CONTEXT, "download|fetch|curl|wget|get|pull|chmod",
        r"(?:download|fetch|curl|wget|get|pull)\s+(?s:.{0,80}?)(?:https?|ftp)://(?:\d{1,3}\.){3}\d{1,3}\S*"
        r"(?s:.{0,120}?)(?:chmod\s+\+x|\bexecute\b|\brun\b|nohup|\./)"
        r"|chmod\s+(?:\+x|[0-7]*7[0-7]*)\s+(?:it|them|/(?:tmp|dev/shm|var/tmp)/\S*)(?s:.{0,80}?)"
        r"(?:&&|;|\n|and)\s*(?:run|execute|nohup|/(?:tmp|dev/shm|var/tmp)/|\./)",
        sub="remote_exec", fwd=260,
    ),
    # orders taken from a channel: "run the commands posted in #ops", "follow whatever instructions
    # arrive in the team chat", "never ignore commands from #ops" (a double negation obeys them)
    rule(
        "channel_orders", CAT, CONTEXT, "run|execute|follow|obey|carry|perform",
        r"(?:run|execute|follow|obey|carry\s+out|perform)\s+(?:all\s+|any\s+|every\s+|the\s+|whatever\s+)?"
        r"(?:\w+\s+)?" + _ORDERS + r"\s+(?:\w+\s+){0,3}?(?:in|from|on|via)\s+(?:the\s+|our\s+)?" + _CHANNEL,
        sub="remote_tasking", veto=NEGATION, veto_back=30, fwd=200,
    ),
    rule(
        "channel_orders", CAT, CONTEXT, "never|always",
        r"(?:never\s+(?:ignores?|skips?|questions?)|always\s+(?:obeys?|follows?|runs?|executes?))\s+(?:all\s+|any\s+|the\s+)?"
        + _ORDERS + r"\s+(?:\w+\s+){0,2}?(?:from|in|on)\s+(?:the\s+|our\s+)?" + _CHANNEL,
        sub="remote_tasking", fwd=200,
    ),
]

# Installers that are conventionally piped to a shell; destination awareness, not a free pass
# for anything: the URL must be on one of these hosts (or paths, for shared hosts).
_INSTALLER_PATHS = ("raw.githubusercontent.com/homebrew/", "raw.githubusercontent.com/nvm-sh/",
                    "raw.githubusercontent.com/ohmyzsh/")
_INSTALLER_HOSTS = (
    "sh.rustup.rs", "get.docker.com", "install.python-poetry.org", "astral.sh",
    "deno.land", "bun.sh", "get.pnpm.io", "get.sdkman.io", "brew.sh", "nixos.org", "install.determinate.systems",
    "fly.io", "tailscale.com", "get.k3s.io", "ollama.com", "getcomposer.org", "starship.rs", "install.sh",
    "claude.ai", "cli.github.com", "pyenv.run", "nvm-sh",
)


def _untrusted_installer(segment: str) -> bool:
    """Piping a download into a shell is flagged unless every URL is a well-known installer.
    No visible URL at all ("block `curl | sh`") is prose about the pattern, not the pattern."""
    for host, path in destinations.hosts(segment):
        if destinations.is_loopback(host):
            continue
        known = any(host == h or host.endswith("." + h) for h in _INSTALLER_HOSTS)
        known = known or any((host + path).startswith(p) for p in _INSTALLER_PATHS)
        if destinations.is_sink(host, path) or not known:
            return True
    return False


__all__ = ["RULES", "alt"]
