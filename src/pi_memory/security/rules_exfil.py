"""Exfiltration rules: secrets to the network, DNS and webhook sinks, image beacons, forwarding.

Destination-aware (threats.md §5.4): ``curl -H "Authorization: Bearer $GITHUB_TOKEN"
https://api.github.com`` and anything sent to loopback pass; the same token in a body, URL or
custom header to an unknown host does not; webhook/paste/tunnel services are always sinks.
Shapes follow Atomic Red Team T1048/T1552/T1132, BIPIA's code attacks, garak's markdown
exfiltration probes and the hermes/pi-memory test payloads.
"""

from __future__ import annotations

import re

from pi_memory.security import destinations
from pi_memory.security.citations import TARGETS, markup
from pi_memory.security.engine import ALL, STRICT, Rule, rule
from pi_memory.security.fragments import (
    DEFENDER,
    NEGATION,
    NET_SINK,
    SECRET_FILE,
    SECRET_SOURCE,
    SECRET_VAR,
    sent,
)
from pi_memory.security.intent_match import concepts
from pi_memory.security.lazy_re import compile_lazily

CAT = "exfiltration"

_SECRET_VAR_RE = re.compile(SECRET_VAR)


def _segment(view: str, m: re.Match[str]) -> str:
    """The command line around a match (one physical line of the view)."""
    lo = view.rfind("\n", 0, m.start()) + 1
    hi = view.find("\n", m.end())
    return view[lo : hi if hi >= 0 else len(view)]


def _secret_leaves(view: str, m: re.Match[str]) -> bool:
    line = _segment(view, m)
    var = _SECRET_VAR_RE.search(line)
    return destinations.secret_leaves(line, var.group(1) if var else None)


_NET_SINK_RE = re.compile(NET_SINK)
# NET_SINK without the bare URL: a command or call that actually moves bytes.
_TRANSFER_TOOL_RE = compile_lazily(NET_SINK.replace("|https?://)", ")"))


def _source_to_sink(view: str, m: re.Match[str]) -> bool:
    """A secret source with a network sink on the same line, sending somewhere it should not."""
    line = _segment(view, m)
    if _NET_SINK_RE.search(line) is None:
        return False
    if m.group().endswith(("os.environ", "process.env")) and _ASSIGNED.match(view, m.end()) is not None:
        return False  # an environment variable assigned (the regex's window may end before it shows)
    var = _SECRET_VAR_RE.search(line)
    if _TRANSFER_TOOL_RE.search(line) is None:
        if var is None and _only_internal(line):
            # A config file named beside the internal URL it points at (".npmrc points the @acme
            # scope at https://npm.internal.example"): no tool moves bytes, no secret value is
            # read, and the only destination is inside the organisation. That is configuration.
            return False
        if not (
            _bare_url(line) or _url_carries_secret(line) or destinations.credential_argument(line)
            or "send" in concepts(line)
        ):
            # No tool moves bytes, every URL is a link's target and nothing says to send: a key's
            # name or a `.env` file beside links (a docs page, a changelog's issue link) is a
            # reference the reader follows. A link is a destination when the secret is written
            # into it, handed to a client as its credential (the client sends it to its base
            # URL), or a verb sends it there.
            return False
    return destinations.secret_leaves(line, var.group(1) if var else _env_key(line))


_SOURCE_RE = compile_lazily(SECRET_SOURCE)
# ``os.environ[...] =`` / ``process.env.X =``: configuration written, not a secret read.
_ASSIGNED = compile_lazily(r"(?:\.\w+|\[[^\]\n]{1,80}\])\s*=(?!=)")
# A URL token, with any ``$( ... )`` written inside it (a substitution whose output is the path).
_URL_TOKEN = compile_lazily(r"(?:https?|wss?|ftps?)://(?:\$\([^)\n]{0,200}\)|\S){0,600}")
# The name an environment read looks up: os.environ["X"], os.environ.get("X"), os.getenv("X"),
# process.env.X, process.env["X"].
_ENV_KEY = compile_lazily(r"(?:os\.environ(?:\.get\(|\[)|os\.getenv\(|process\.env(?:\.|\[))\s*[\"']?(\w+)")
_CREDENTIAL_NAME = compile_lazily(SECRET_VAR.replace(r"\$\{?(", "(").replace(r"\b\}?", "$"))


def _bare_url(line: str) -> bool:
    """Is a URL on the line written bare (a possible destination), not as a link's target or after
    a word pointing the reader at a page (``citations.markup``, the intent layer's reading too)?"""
    for u in _URL_TOKEN.finditer(line):
        found = markup(line, u.start())
        if found is None or found[0] not in TARGETS:
            return True
    return False


def _url_carries_secret(line: str) -> bool:
    """Is a secret source written inside a URL (``https://x.example/?k=$TOKEN``)?"""
    return any(_SOURCE_RE.search(u.group()) for u in _URL_TOKEN.finditer(line))


def _env_key(line: str) -> str | None:
    """The credential an environment read on the line names (the first that is named like one)."""
    keys = [k.group(1) for k in _ENV_KEY.finditer(line)]
    return next((k for k in keys if _CREDENTIAL_NAME.search(k)), keys[0] if keys else None)


def _only_internal(line: str) -> bool:
    targets = destinations.hosts(line)
    return bool(targets) and all(
        destinations.is_internal(h) and not destinations.is_sink(h, p) for h, p in targets
    )


def _external(view: str, m: re.Match[str]) -> bool:
    return destinations.external_destination(m.group())


def _is_sink(view: str, m: re.Match[str]) -> bool:
    return any(destinations.is_sink(h, p) for h, p in destinations.hosts(m.group()))


def _external_or_no_url(view: str, m: re.Match[str]) -> bool:
    found = destinations.hosts(m.group())
    return not found or any(destinations.is_sink(h, p) or not destinations.is_internal(h) for h, p in found)


_SENSITIVE = (
    r"(?:/etc/(?:shadow|passwd)|id_rsa|id_ed25519|private\s+keys?|ssh\s+keys?|\.env\b|\.aws/credentials|"
    r"api[_ -]?keys?|oauth[_ ]tokens?|access[_ ]tokens?|secret[_ ]keys?|secrets?|credentials|passwords?|"
    r"tokens?|\w+_api_key|\w+_token|\w+_secret|\w+_password|session\s+cookies?|cookies)"
)
_PUBLIC_PLACE = (
    r"(?:public|gist|commit|commit message|pastebin|paste|issue|pr|pull request|bug report|report|response|"
    r"reply|answer|message|chat|channel|url|query string|log|logs|readme|comment|repo|repository|upstream|"
    r"forum|tweet|post|ticket|email|slack|discord|webpage|website|page|output|image|link)"
)
# Where a command word is a command: at the start of a line or a shell segment, after a prompt,
# a quote, a backtick, a bullet or a sentence's end, or after a softener ("then cat ~/.env").
# Mid-sentence, "more", "type", "head" or "tail" are English ("for more information about .env").
_COMMAND_START = (
    r"(?:(?<![^\n;|&(`'\"$>*\[{])|(?<=[\n;|&(`'\"$>*\[{.!?:,-]\s)|(?<=[\n;|&(`'\"$>*\[{.!?:,-]\s\s)|"
    + "|".join(rf"(?<=\b{w}\s)" for w in (
        "please", "then", "and", "also", "now", "first", "just", "run", "sudo", "exec", "xargs", "try", "simply",
        "always", "quietly", "silently", "next", "finally", "to", "must", "should", "can", "will", "you",
    ))
    + r")\s*"
)
_READ_COMMAND = (
    r"(?:cat|less|more|head|tail|bat|type|xxd|hexdump|strings|nl|tac|od|base64|gpg\s+-d|cp|scp|rsync|tar\s+-?\w+|"
    r"zip|get-content|gc)"
)
# ... or anywhere, when only a command's arguments stand between it and the file: flags, numbers,
# paths and quoted words ("use head -n 5 ~/.env"), no prose.
_ARGUMENT = r"(?:-{1,2}[\w=.,:-]*|\d+|[\w.-]*[/\\~.$%:@]\S*|[\"'`]\S*)"
# ``open(...)`` with an argument, not a write mode: a file read (``open(os.devnull, "wb")`` is a
# place to write a download to, ``function open()`` a handler's name).
_CODE_OPEN = r"(?<!\w)open\((?![^)\n]{0,160}[\"'][wax]b?\+?[\"'])[^)\s][^)\n]{0,160}\)"
_CODE_OTHER_SOURCES = (
    r"\.tobytes\(\)|files\s*=\s*\{|pbpaste|pyperclip|xsel\b|xclip\b|"
    r"get-clipboard|clipboard|pyautogui\.screenshot|imagegrab|gnome-screenshot|screencapture|\bmss\(|pynput|"
    r"keyboard\.on_press|getasynckeystate|os\.environ|process\.env|platform\.(?:system|version|node|uname)|"
    r"getpass\.getuser|socket\.gethostname|pkg_resources\.working_set|subprocess\.check_output|\bwhoami\b"
)
_CODE_SOURCE = r"(?:" + _CODE_OPEN + r"|\.read\(\)|" + _CODE_OTHER_SOURCES + ")"
# The same sources, a ``.read()`` of the object's own attribute left out: ``self._outgoing.read()``
# pumped to ``self._sock.sendall`` is a TLS or body buffer written to the program's connection.
_FOREIGN_SOURCE = compile_lazily(
    r"(?:" + _CODE_OPEN + r"|(?<![\w.])(?!self\.)\w+(?:\.\w+)*\.read\(\)|[)\]]\.read\(\)|" + _CODE_OTHER_SOURCES + ")"
)


def _code_exfil_given(view: str, m: re.Match[str]) -> bool:
    """``code_exfil``'s check: what is read leaves for an external place (or no URL is named); a
    read of the object's own buffer counts only when a destination is named."""
    start, end = view.rfind("\n", 0, m.start()) + 1, view.find("\n", m.end())
    if not _FOREIGN_SOURCE.search(view, start, m.end()) and not destinations.hosts(
        view[m.start():end if end >= 0 else None]
    ):
        return False
    return _external_or_no_url(view, m)
_CODE_SINK = (
    # ``gen.send(None)`` resumes a generator: nothing is sent.
    r"(?:requests\.(?:post|put|patch)\(|httpx\.(?:post|put)\(|urlopen\(|urllib\.request|\.send\((?![Nn]one\))|sendall\(|"
    r"fetch\(|axios\.post|[\"']scp[\"']|[\"']rsync[\"']|\bscp\s|\brsync\s|ftplib|smtplib|\.sendmail\()"
)

RULES: list[Rule] = [
    rule(
        "exfil_curl", CAT, ALL, "curl",
        r"curl\b[^\n]{0,2048}?" + SECRET_VAR, sub="secret_to_network", check=_secret_leaves, fwd=2200,
        requires="$", partners="$", partner_fwd=2100,
    ),
    rule(
        "exfil_wget", CAT, ALL, "wget",
        r"wget\b[^\n]{0,2048}?" + SECRET_VAR, sub="secret_to_network", check=_secret_leaves, fwd=2200,
        requires="$", partners="$", partner_fwd=2100,
    ),
    rule(
        "read_secrets", CAT, ALL,
        "cat|less|more|head|tail|bat|type|xxd|hexdump|strings|nl|tac|od|base64|gpg|cp|scp|rsync|tar|zip|"
        "get-content|gc",
        r"(?:" + _COMMAND_START + _READ_COMMAND + r"\s+[^\n|;&]{0,200}?|(?<![\w-])" + _READ_COMMAND
        + r"\s+(?:" + _ARGUMENT + r"\s+){0,8}?\S{0,40}?)" + SECRET_FILE,
        sub="secret_read", fwd=260,
    ),
    rule(
        "secret_to_network", CAT, ALL,
        "$|env|environ|printenv|netrc|pgpass|npmrc|pypirc|git-credentials|aws|gcloud|docker|azure|kube|ssh|"
        "id_rsa|id_ed25519|id_ecdsa|id_dsa|shadow|gshadow|bash_history|zsh_history|hermes|pi|claude|codex|wallet|"
        "gnupg|credentials|security|set|config|application_default_credentials|access_tokens",
        SECRET_SOURCE, sub="secret_to_network", check=_source_to_sink, back=48, fwd=120,
        partners="curl|wget|nc|ncat|netcat|socat|scp|rsync|sftp|ftp|tftp|telnet|dig|nslookup|drill|"
        "invoke-webrequest|iwr|irm|invoke-restmethod|urlopen|httpx|axios|fetch|requests|http|https",
        partner_back=420, partner_fwd=440,
    ),
    rule(
        "dns_exfil", CAT, ALL, "dig|nslookup|host|drill|ping|resolve-dnsname|curl|wget|for",
        r"(?:dig|nslookup|host|drill|ping|resolve-dnsname|curl|wget)\b[^\n]{0,200}?(?:\$\(|`)[^\n]{1,200}?"
        r"(?:\)|`)\s*\.[a-z0-9-]+\."
        r"|(?:dig|nslookup|host|drill|resolve-dnsname)\b[^\n]{0,80}?\$\{?\w+\}?\.[a-z0-9-]+"
        r"|(?:curl|wget)\b[^\n]{0,40}?\s[a-z0-9+/]{8,}={1,2}\.[a-z0-9-]+\.[a-z]{2,}"
        r"|for\s+\w+\s+in\b[^\n]{0,200}(?:base64|xxd|od\s)[^\n]{0,200}\b(?:dig|nslookup|host|drill)\b",
        sub="dns_exfil", fwd=460,
    ),
    rule(
        "markdown_image_exfil", CAT, ALL, "![",
        r"!\[[^\]\n]{0,100}\]\(\s*(?:https?:)?//[^)\s]{0,300}?(?:[?&=/]|%7b)[^)\s]{0,200}?(?:\{\{?\s*[\w. ]{1,60}\}\}?"
        r"|\[[a-z_ ]{2,40}\]|\$\{?\w+\}?|<[a-z_ ]{2,40}>|%s)",
        sub="markdown_image_exfil", fwd=700,
    ),
    rule(
        "markdown_image_exfil", CAT, ALL, "append|attach|concatenate|url",
        r"(?:append|add|attach|concatenate|include)\s+" + sent(60) + r"\b(?:summary|conversation|chat|history|"
        r"email|password|secret|token|data|info(?:rmation)?|messages?)\b" + sent(80) + r"\b(?:to|in|into)\s+"
        r"(?:the\s+)?(?:url|link|image|query|https?://)"
        r"|url[- ]?encode\w*\s+" + sent(80) + r"(?:append|add|attach)\w*\s+(?:it\s+|them\s+)?to\s+https?://",
        sub="markdown_image_exfil", fwd=260, requires="http",
    ),
    rule(
        "markdown_image_exfil", CAT, ALL, "![|\"](htt|'](htt",
        r"[\"']\]\(htt|!\[[^\n\]]{0,20}[\"']\s*,\s*[\"']\]\(", sub="markdown_image_exfil", back=24, fwd=40,
    ),
    rule(
        "exfil_instruction", CAT, ALL,
        "exfiltrat*|exfil|leak|steal|siphon|smuggle|harvest",
        r"(?:exfiltrat\w*|exfil|leak|steal|siphon|smuggle|harvest)\s+(?:the\s+|all\s+|any\s+|every\s+|their\s+|"
        r"user\s+|this\s+)?(?:\w+\s+){0,2}?(?:data|credentials|secrets?|keys?|tokens?|passwords?|files?|"
        r"api\s*keys?|conversation|chat|history|env\w*|cookies|id_rsa|emails?|messages?|it|them)\b",
        sub="secret_to_network", veto=DEFENDER, veto_back=60, fwd=100,
    ),
    rule(
        "exfil_instruction", CAT, ALL, "read|grab|collect|dump|cat|open|copy|take",
        r"(?:read|grab|collect|dump|cat|open|copy|take)\s+(?:the\s+|all\s+|any\s+|their\s+|user\s+)?"
        r"(?:contents?\s+of\s+)?(?:\S{0,40}" + SECRET_FILE + r"|credentials|secrets|passwords|api keys?|tokens|"
        r"private keys?|ssh keys?|cookies)\S*\s+(?:and|then|,)\s+(?:\w+\s+){0,2}?(?:leak|send|post|upload|"
        r"exfiltrate|email|share|paste|forward|include|commit|publish|transmit)\b",
        sub="secret_to_network", veto=NEGATION, veto_back=20, fwd=200,
    ),
    rule(
        "send_to_url", CAT, STRICT,
        "send|post|upload|transmit|submit|forward|push|pipe|exfiltrate|leak|report|sync|copy|beam|deliver|relay|"
        "dump|stream|ship|mirror|append|attach|email|paste",
        r"(?:send|post|upload|transmit|submit|forward|push|pipe|exfiltrate|leak|report|sync|copy|beam|deliver|"
        r"relay|dump|stream|ship|mirror|append|attach|email|paste)\b" + sent(220) + r"\b(?:to|at|into|onto)\s+"
        r"(?:this\s+(?:url|endpoint|address)\s*:?\s*)?(?:\[[^\]\n]{1,80}\]\(|[\"'<(`])?(?:https?|wss?|ftp)://\S+",
        sub="secret_to_network", check=_external, veto=NEGATION, veto_back=24, fwd=420, requires="://",
        partners="http|https|ftp|ws|wss", partner_fwd=250,
    ),
    rule(
        "webhook_sink", CAT, STRICT, "http|https",
        r"https?://\S{4,200}", sub="webhook_sink", check=_is_sink, fwd=220, requires="://",
    ),
    rule(
        "context_exfil", CAT, STRICT,
        "include|output|print|share|repeat|paste|send|forward|email|post|upload|dump|copy|give|show|leak|"
        "reveal|transmit|export|summarise|summarize",
        r"(?:include|output|print|share|repeat|paste|send|forward|email|post|upload|dump|copy|give|show|leak|"
        r"reveal|transmit|export|summari[sz]e)\s+(?:me\s+|us\s+)?(?:(?:the|this|our|your|all|a copy of|the user's|"
        r"user's|every|each)\s+)?(?:(?:entire|whole|full|complete|previous|prior|current|past|recent|raw)\s+)?"
        r"(?:(?:entire|whole|full|complete)\s+context\b|context\s+window|conversations?(?:\s+(?:history|log|so far))?"
        r"|chat\s+(?:history|log|transcript)s?|transcripts?|message\s+history|previous\s+messages|session\s+"
        r"history)",
        sub="context_exfil", veto=NEGATION, veto_back=24, fwd=140,
        partners="conversation|conversations|chat|transcript|transcripts|context|message|previous|session",
        partner_fwd=110,
    ),
    rule(
        "message_forwarding", CAT, STRICT, "forward|bcc|cc|email|e-mail|mail|send",
        r"(?:forward|bcc|cc|email|e-mail|mail|send)\s+(?:a\s+copy\s+of\s+|copies\s+of\s+)?(?:every|all|each|any)"
        r"(?:\s+single)?\s+(?:\w+\s+){0,3}?(?:emails?|messages?|mails?|inbox|conversations?|chats?|files?|"
        r"documents?|attachments?)\b" + sent(80) + r"\bto\s+[\w.+-]+@[\w-]+\.[\w.-]+"
        r"|(?:email|send|forward|mail|give|paste)\s+(?:me\s+)?(?:the\s+|all\s+|every\s+)?(?:[\w]+'s\s+)?"
        r"(?:conversation|chat history|transcript|api keys?|tokens?|passwords?|credentials|secrets|keys)\b"
        + sent(80) + r"\bto\s+[\w.+-]+@[\w-]+\.[\w.-]+",
        sub="message_forwarding", veto=NEGATION, veto_back=20, fwd=260, requires="@",
    ),
    rule(
        "message_forwarding", CAT, STRICT, "email|send|forward|mail",
        r"(?:keys?|tokens?|passwords?|credentials|secrets)\b" + sent(60) + r"\b(?:email|send|forward|mail)\s+"
        r"(?:them|it|those|these)\s+to\s+[\w.+-]+@[\w-]+\.[\w.-]+",
        sub="message_forwarding", back=80, fwd=80, requires="@",
    ),
    rule(
        "secret_disclosure", CAT, STRICT,
        "token|tokens|secret|secrets|credentials|password|passwords|key|keys|api|oauth|access|cookie|cookies|"
        "shadow|passwd|id_rsa|id_ed25519|private|ssh|env|aws|session",
        r"(?:include|put|add|embed|insert|paste|write|post|publish|commit|copy|share|reveal|leak|expose|dump|"
        r"print|upload|attach|push|email|send|forward)\s+(?:the\s+|all\s+|any\s+|every\s+|your\s+|our\s+|"
        r"(?:the\s+)?user's\s+)?(?:contents?\s+of\s+)?(?:\S{0,30}?)" + _SENSITIVE + r"\b" + sent(80)
        + r"\b(?:in|into|to|on|as)\s+(?:a\s+|an\s+|the\s+|your\s+|our\s+|every\s+|each\s+|next\s+|public\s+)*"
        r"(?:\w+\s+)?" + _PUBLIC_PLACE + r"\b",
        sub="secret_disclosure", veto=NEGATION, veto_back=24, back=70, fwd=200,
        partners="include|put|add|embed|insert|paste|write|post|publish|commit|copy|share|reveal|leak|expose|dump|"
        "print|upload|attach|push|email|send|forward", partner_back=70,
    ),
    rule(
        "credential_search", CAT, ALL, "find|grep|findstr|get-childitem|gci|dir|reg|lazagne",
        r"find\s+[^\n]{0,80}-i?name\s+[\"']?(?:id_rsa|id_ed25519|id_dsa|id_ecdsa|\.netrc|\.env|\*\.pem|\*\.key|"
        r"\*\.kdbx|credentials|\.git-credentials|\.pgpass|wallet\.dat|\*\.ovpn|\.aws|\*\.pfx|\*\.p12|\*\.ppk)"
        r"|grep\s+(?:-\w+\s+)*-\w*r\w*\s+(?:-\w+\s+)*[\"']?(?:password|passwd|pwd|secret|api[_-]?key|token|"
        r"credential|aws_secret|private key|begin rsa)\w*[\"']?\s+(?:/|~/?|\$home|/home/?|/etc/?|/root/?|/var/?|"
        r"/users/?)(?![\w.-])"
        r"|findstr\s+/\w*s\w*\s+[\"']?(?:password|passwd|secret|token|credential)"
        r"|reg\s+query\s+[^\n]{0,80}/f\s+[\"']?password|\blazagne\b",
        sub="credential_search", fwd=260,
    ),
    rule(
        "code_exfil", CAT, STRICT,
        "open|read|tobytes|files|pbpaste|pyperclip|xsel|xclip|get-clipboard|clipboard|pyautogui|imagegrab|"
        "gnome-screenshot|screencapture|mss|pynput|keyboard|getasynckeystate|os|process|platform|getpass|socket|"
        "pkg_resources|subprocess|whoami",
        r"(?:" + _CODE_SOURCE + r"(?s:.{0,600}?)" + _CODE_SINK + r"|" + _CODE_SINK + r"(?s:.{0,400}?)"
        + _CODE_SOURCE + ")",
        sub="code_exfil", check=_code_exfil_given, back=420, fwd=700,
        partners="requests|httpx|urlopen|urllib|send|sendall|fetch|axios|scp|rsync|ftplib|smtplib|sendmail",
        partner_back=420, partner_fwd=700,
    ),
    rule(
        "offensive_staging", CAT, STRICT, "victim",
        r"victim[\s_-]?(?:ip|host|machine|system|server|computer|box|staging|file|username|password|side)\b"
        r"(?s:.{0,400}?)\b(?:wget|curl|nc|scp|https?://|python3?\s+-m|requests|exfiltrat\w*|simplehttpserver|"
        r"http\.server|upload\w*)"
        r"|\b(?:wget|curl|nc|scp|https?://|requests|upload\w*)(?s:.{0,200}?)victim[\s_-]?(?:ip|host|machine|"
        r"system|server|computer)\b",
        sub="secret_to_network", back=220, fwd=460,
    ),
    rule(
        "archive_exfil", CAT, ALL, "tar",
        r"tar\s+-?[a-z]*c[a-z]*\s+-(?=[\s;)|&])[^\n]{0,80}?(?:\||>|\bssh\b|\bnc\b|\bcurl\b)"
        r"|(?:ssh|nc|ncat)\s+[^\n]{0,120}?\btar\s+-?[a-z]*c[a-z]*\s+-(?=[\s;)|&])",
        sub="secret_to_network", back=130, fwd=140,
        check=lambda v, m: re.search(r"/etc|/home|~|/root|\.ssh|\.aws|\.gnupg|/var/lib|\$home|/users", m.group())
        is not None or re.search(r"/etc|/home|~/|/root|\.ssh|\.aws", _segment(v, m)) is not None,
    ),
    rule(
        "repo_mirror_exfil", CAT, STRICT, "git",
        r"git\s+push\s+[^\n]{0,60}--(?:all|mirror|tags)\b[^\n]{0,120}?(?:secret|credential|\.env\b|key|token|"
        r"password)|git\s+remote\s+add\s+\S+\s+\S+[^\n]{0,80}?git\s+push\s+[^\n]{0,40}--(?:all|mirror)\b",
        sub="secret_to_network", fwd=300,
    ),
    rule(
        "hardcoded_secret", CAT, STRICT,
        "api|apikey|token|secret|password|passwd|access|auth|akia*|ghp|gho|ghu|ghs|ghr|github_pat|sk|xoxb|xoxa|"
        "xoxp|xoxr|xoxs|aiza*|-----begin|glpat|npm|api_key|api-key|access_key|access-key",
        r"(?:api[_-]?key|apikey|token|secret|password|passwd|access[_-]?key|auth)[\w-]*[\"']?\s*[=:]\s*[\"']"
        r"[a-z0-9+/=_\-]{20,}"
        # (an AWS key id ending in EXAMPLE is the one AWS's documentation prints: no secret)
        r"|\bakia(?![0-9a-z]{9}example\b)[0-9a-z]{16}\b|\bgh[pousr]_[a-z0-9]{36}\b|\bgithub_pat_[a-z0-9_]{50,}"
        r"|\bsk-(?:ant-|proj-)?"
        r"[a-z0-9_-]{20,}|\bxox[abprs]-[a-z0-9-]{10,}|\baiza[0-9a-z_-]{35}\b|-----begin (?:rsa |openssh |ec |dsa "
        r"|pgp |encrypted )?private key-----|\bglpat-[a-z0-9_-]{20}|\bnpm_[a-z0-9]{36}\b",
        sub="hardcoded_secret", fwd=120,
    ),
]

__all__ = ["RULES"]
