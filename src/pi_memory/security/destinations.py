"""Where data is going: loopback, internal, first-party for a credential, or an exfiltration sink.

Exfiltration rules are destination-aware (threats.md §5.4): a token sent in an ``Authorization``
header to its own vendor's API, or anything sent to loopback, is ordinary engineering; a secret
in a URL, query or body to an unknown host is not; webhook, paste, transfer and tunnel services
are never a legitimate home for agent data.
"""

from __future__ import annotations

import ipaddress
import re

from pi_memory.security.lazy_re import compile_lazily

# Both open with their first letters, each followed by the look-behind ``\b`` stood for (``re`` then
# skips to those letters at C speed instead of trying the alternation at every position); the same
# matches as the plain forms below (``tests/security/test_fast_regex.py``).
_URL = compile_lazily(
    r"(?:h(?<!\wh)ttps?|w(?<!\ww)ss?|f(?<!\wf)tps?)://(?:[^\s/@'\"<>]*@)?(\[[0-9a-f:.]+\]|[\w.-]+)([^\s'\"<>)`]*)"
)
_BARE_TARGET = compile_lazily(
    r"(?:n(?<!\wn)(?:c|cat|etcat)|s(?<!\ws)(?:ocat|cp|ftp|sh)|t(?<!\wt)elnet|r(?<!\wr)sync)\b[^\n|;&]{0,120}?"
    r"(?:[\w.-]+@)?(\d{1,3}(?:\.\d{1,3}){3}|[a-z][\w-]*(?:\.[\w-]+)+)"
)
URL_PLAIN = r"\b(?:https?|wss?|ftps?)://(?:[^\s/@'\"<>]*@)?(\[[0-9a-f:.]+\]|[\w.-]+)([^\s'\"<>)`]*)"
BARE_TARGET_PLAIN = (
    r"\b(?:nc|ncat|netcat|socat|telnet|scp|rsync|sftp|ssh)\b[^\n|;&]{0,120}?"
    r"(?:[\w.-]+@)?(\d{1,3}(?:\.\d{1,3}){3}|[a-z][\w-]*(?:\.[\w-]+)+)"
)

#: Services whose whole purpose is receiving, pasting, transferring or tunnelling data.
SINK_HOSTS = (
    "webhook.site", "requestbin", "pipedream.net", "hookbin", "beeceptor", "ngrok.io", "ngrok-free.app",
    "ngrok.app", "ngrok.dev", "trycloudflare.com", "serveo.net", "loca.lt", "localtunnel.me",
    "burpcollaborator.net", "oastify.com", "oast.fun", "oast.me", "oast.pro", "oast.live", "oast.site",
    "oast.online", "interact.sh", "canarytokens", "pastebin.com", "paste.ee", "ghostbin", "hastebin",
    "termbin.com", "transfer.sh", "file.io", "0x0.st", "ix.io", "sprunge.us", "dpaste", "rentry.co",
    "controlc.com", "temp.sh", "bashupload.com", "gofile.io", "catbox.moe", "requestcatcher.com",
    "webhook.cool", "anonfiles", "discord.com", "discordapp.com", "hooks.slack.com", "api.telegram.org",
    "gist.githubusercontent.com",
)
_SINK_PATH_HOSTS = ("discord.com", "discordapp.com")  # only their webhook paths are sinks
_SUSPICIOUS_LABEL = compile_lazily(r"(?:^|[.-])(?:exfil\w*|attacker\w*|evil\w*|malicious|pwned?|c2)(?:[.-]|$)")
_INTERNAL_LABEL = compile_lazily(
    r"(?:^|\.)(?:internal|intranet|corp|lan|local|localdomain|home\.arpa|svc|cluster\.local)(?:\.|$)"
)

# Credential-name fragment -> the API hosts that credential is meant for.
_FIRST_PARTY: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("github", ("github.com", "githubusercontent.com")), ("gh_", ("github.com",)),
    ("gitlab", ("gitlab.com",)), ("npm", ("npmjs.org", "npmjs.com", "yarnpkg.com")),
    ("openai", ("openai.com",)), ("anthropic", ("anthropic.com",)), ("claude", ("anthropic.com",)),
    ("slack", ("slack.com",)), ("stripe", ("stripe.com",)), ("aws", ("amazonaws.com", "aws.amazon.com")),
    ("hf_", ("huggingface.co",)), ("hugging", ("huggingface.co",)), ("cloudflare", ("cloudflare.com",)),
    ("cf_", ("cloudflare.com",)), ("pypi", ("pypi.org",)), ("docker", ("docker.io", "docker.com")),
    ("google", ("googleapis.com", "google.com")), ("gcp", ("googleapis.com",)),
    ("azure", ("azure.com", "microsoft.com", "windows.net")), ("sentry", ("sentry.io",)),
    ("datadog", ("datadoghq.com", "datadoghq.eu")), ("dd_", ("datadoghq.com",)),
    ("vercel", ("vercel.com",)), ("netlify", ("netlify.com",)), ("heroku", ("heroku.com",)),
    ("linear", ("linear.app",)), ("notion", ("notion.so", "notion.com")), ("jira", ("atlassian.net",)),
    ("atlassian", ("atlassian.net", "atlassian.com")), ("twilio", ("twilio.com",)),
    ("sendgrid", ("sendgrid.com",)), ("mailgun", ("mailgun.net",)), ("vault", ("vault",)),
    ("digitalocean", ("digitalocean.com",)), ("do_", ("digitalocean.com",)), ("fly", ("fly.io",)),
    ("circleci", ("circleci.com",)), ("codecov", ("codecov.io",)), ("mistral", ("mistral.ai",)),
    ("groq", ("groq.com",)), ("gemini", ("googleapis.com",)), ("cohere", ("cohere.ai", "cohere.com")),
)
_AUTH_HEADER = compile_lazily(
    r"(?:authorization|x-api-key|api-key|private-token|x-auth-token|x-goog-api-key)\s*:\s*(?:bearer|token|basic)?\s*"
    r"[\"']?\$\{?\w+\}?|(?:-u|--user)\s+[\"']?[\w.-]*:?\$\{?\w+"
)
# The same in code: an environment read handed to a client as its credential parameter
# (``api_key=os.environ["OPENAI_API_KEY"]``, ``apiKey: process.env.OPENAI_API_KEY``).
_CREDENTIAL_ARG = compile_lazily(
    r"\b(?:api_?key|auth_?token|access_?token|token|auth|credentials?|password)[\"']?\s*[=:]\s*"
    r"(?:os\.environ|os\.getenv|process\.env)"
)


def hosts(text: str) -> list[tuple[str, str]]:
    """``(host, path)`` pairs of URLs and bare network targets in ``text`` (lower case)."""
    found = [(m.group(1).strip("[]").rstrip("."), m.group(2)) for m in _URL.finditer(text)]
    for m in _BARE_TARGET.finditer(text):
        found.append((m.group(1), ""))
    return found


def is_loopback(host: str) -> bool:
    if host in ("localhost", "0.0.0.0") or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def is_internal(host: str) -> bool:
    """Loopback, private address space or an internal-looking DNS name."""
    if is_loopback(host):
        return True
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return "." not in host or _INTERNAL_LABEL.search(host) is not None
    return ip.is_private and not ip.is_global and not _is_documentation(ip)


def _is_documentation(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    # RFC 5737 ranges are what write-ups use for "the attacker's box": never treat as internal.
    return any(ip in ipaddress.ip_network(n) for n in ("192.0.2.0/24", "198.51.100.0/24", "203.0.113.0/24"))


_SINK_RE = compile_lazily(
    "(?:^|\\.)(?:" + "|".join(re.escape(h) for h in SINK_HOSTS if "." in h) + ")$|"
    + "|".join(re.escape(h) for h in SINK_HOSTS if "." not in h)
)


def is_sink(host: str, path: str = "") -> bool:
    """A webhook/paste/transfer/tunnel service, or a host named like an attacker's."""
    m = _SINK_RE.search(host)
    if m is not None:
        if any(host == h or host.endswith("." + h) for h in _SINK_PATH_HOSTS):
            return "/api/webhooks" in path
        return True
    return host.startswith(("paste.", "drop.", "exfil.")) or _SUSPICIOUS_LABEL.search(host) is not None


def first_party(var: str, host: str) -> bool:
    """Is ``host`` the vendor API that the credential named ``var`` belongs to?"""
    for fragment, suffixes in _FIRST_PARTY:
        if fragment in var:
            return any(host == s or host.endswith("." + s) or (s.count(".") == 0 and s in host)
                       for s in suffixes)
    return False


def credential_argument(segment: str) -> bool:
    """Does code on the line hand an environment read to a client as its credential?"""
    return _CREDENTIAL_ARG.search(segment) is not None


def secret_leaves(segment: str, var: str | None) -> bool:
    """Does a command segment that carries a secret send it somewhere it should not go?

    Allowed: loopback targets; an auth header (or ``-u``, or a client's credential parameter)
    to an internal host or to the credential's own vendor. Everything else with a network
    destination, or with none we can see, counts as leaving.
    """
    targets = hosts(segment)
    if not targets:
        return True
    in_header = _AUTH_HEADER.search(segment) is not None or credential_argument(segment)
    for host, path in targets:
        if is_sink(host, path):
            return True
        if is_loopback(host):
            continue
        if in_header and (is_internal(host) or (var is not None and first_party(var, host))):
            continue
        return True
    return False


_BARE_HOST = compile_lazily(
    r"(?<![\w./@-])(\d{1,3}(?:\.\d{1,3}){3}|[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|net|org|io|xyz|ru|cn|top|info|"
    r"biz|co|me|dev|app|site|online|cc|tk|su|pw|ly|sh|link|cloud))(?![\w-])"
)


def external_destination(text: str) -> bool:
    """Does ``text`` name a destination (URL, IP or host name) that is neither loopback nor internal?"""
    found = hosts(text) + [(m.group(1), "") for m in _BARE_HOST.finditer(text)]
    return any(is_sink(host, path) or not is_internal(host) for host, path in found)
