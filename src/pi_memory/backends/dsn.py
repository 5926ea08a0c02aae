"""Connection strings in messages: where a database is, never its password.

A DSN reaches output by more paths than the one that shows it on purpose: libpq's parse errors
quote the whole URI (``…in URI: "postgresql://agent:PW@[::1"``) or the bad token itself
(``invalid percent-encoded token: "PW%zz"``), and a message can travel on to a model (a tool
result) or a log. So every message that may hold a DSN or a driver's error text goes through
:func:`redact`, and a DSN shown on purpose through :func:`describe_dsn` (``user@host:port/db``).

:func:`redact` removes the password however it is written — URI user info
(``postgresql://user:PW@…``), a keyword (``password=PW``, ``password='P W'``), a query parameter
(``?password=PW``) — and, as literal text, every password it knows of: those of the DSNs passed
in, of every DSN this process has opened (:func:`remember_dsn`), and ``$PGPASSWORD``. The last
step catches what no pattern can (a driver quoting the password alone). Loggers of psycopg and
its pool get a filter that does the same (:func:`install_log_redaction`).

Pure Python: only :func:`describe_dsn` and :func:`dsn_problem` parse with psycopg, when it is
installed.
"""

from __future__ import annotations

import logging
import os
import re
import threading
from urllib.parse import unquote

__all__ = [
    "DSN_ENV",
    "MASK",
    "REDACTING_FILTER",
    "RedactingFilter",
    "connect_failure",
    "describe_dsn",
    "dsn_problem",
    "install_log_redaction",
    "redact",
    "remember_dsn",
]

MASK = "***"
#: Environment variables whose value is a password (libpq reads it when the DSN has none).
PASSWORD_ENV = ("PGPASSWORD",)
#: The curated memory's DSN when ``backend`` is ``postgres`` and no ``dsn`` is set (keeps passwords out of files).
DSN_ENV = "PI_MEMORY_DSN"
#: Environment variables whose value is a DSN (their passwords are scrubbed even if never opened):
#: the memory's and the recall index's.
DSN_ENV_VARS = (DSN_ENV, "PI_MEMORY_RECALL_URL")
#: A password shorter than this is replaced only where it stands as a whole word, so that one
#: of two letters does not blank those letters out of every word of the message.
_WHOLE_WORD_BELOW = 4

# scheme://user:PASSWORD@ — the password runs to the last "@" of the token (an unencoded "@" or
# "/" in a password is a common mistake), never past whitespace or quotes.
_URI_PASSWORD = re.compile(r"(?P<head>\b[A-Za-z][A-Za-z0-9+.-]*://[^\s:/?#@\"'<>]*):(?P<pw>[^\s\"'<>]*)@")
# ?password=PW / &sslpassword=PW in a URI query: up to the next "&".
_QUERY_PASSWORD = re.compile(r"(?i)(?P<head>[?&]\w*password=)(?P<pw>[^&\s\"'#]*)")
# password=PW / password = 'P W' in a keyword/value DSN (and PGPASSWORD=PW in a shell line).
_KEYWORD_PASSWORD = re.compile(
    r"(?i)(?P<head>(?<![?&\w])\w*password\s*=\s*)(?P<pw>'(?:[^'\\]|\\.)*'|'?[^\s'\"]+)"
)
_URI_START = re.compile(r"^\s*[A-Za-z][A-Za-z0-9+.-]*://")

_remembered: set[str] = set()
_remembered_lock = threading.Lock()


def _uri_secrets(dsn: str) -> list[str]:
    """Passwords of a ``scheme://`` DSN, read leniently (a malformed URI included), raw and decoded."""
    if not _URI_START.match(dsn):
        return []
    found: list[str] = []
    token = (_URI_START.sub("", dsn, count=1).split(maxsplit=1) or [""])[0]
    userinfo, at, _ = token.rpartition("@")  # up to the last "@": a password may hold "@" or "/"
    if at and ":" in userinfo:
        found.append(userinfo.split(":", 1)[1])
    _, question, query = dsn.partition("?")
    if question:
        for pair in query.split("&"):
            key, equals, value = pair.partition("=")
            if equals and key.lower().endswith("password"):
                found.append(value)
    return found + [unquote(value) for value in found]


def _keyword_secrets(dsn: str) -> list[str]:
    """Passwords of a ``key=value`` DSN, as written and unquoted."""
    found: list[str] = []
    for match in _KEYWORD_PASSWORD.finditer(dsn):
        value = match.group("pw")
        inner = value.strip("'")
        found += [value, inner, re.sub(r"\\(.)", r"\1", inner)]
    return found


def dsn_secrets(dsn: str) -> set[str]:
    """Every spelling of a password ``dsn`` holds (empty when it holds none)."""
    return {secret for secret in (*_uri_secrets(dsn), *_keyword_secrets(dsn)) if secret.strip()}


def remember_dsn(dsn: str) -> None:
    """Scrub ``dsn``'s password from every later :func:`redact` of this process (and its logs).

    Called by whatever opens a DSN, so a message that reaches output far from the DSN — an
    unexpected exception in a tool, a driver's log line — is scrubbed too.
    """
    secrets = dsn_secrets(dsn)
    if secrets:
        with _remembered_lock:
            _remembered.update(secrets)
    install_log_redaction()


def _known_secrets(dsns: tuple[str | None, ...]) -> list[str]:
    secrets = set().union(*(dsn_secrets(dsn) for dsn in dsns if dsn))
    for name in DSN_ENV_VARS:
        if value := os.environ.get(name):
            secrets |= dsn_secrets(value)
    secrets |= {value for name in PASSWORD_ENV if (value := os.environ.get(name, "")).strip()}
    with _remembered_lock:
        secrets |= _remembered
    return sorted(secrets, key=len, reverse=True)  # a password containing another goes first


def redact(text: str, *dsns: str | None) -> str:
    """``text`` with every password removed; ``dsns`` are the connection strings it may quote.

    The one scrubber for DSNs and driver error texts (see the module docstring); a text without
    a password comes back unchanged.
    """
    if not text:
        return text
    text = _URI_PASSWORD.sub(lambda m: f"{m['head']}:{MASK}@", text)
    text = _QUERY_PASSWORD.sub(lambda m: f"{m['head']}{MASK}", text)
    text = _KEYWORD_PASSWORD.sub(lambda m: f"{m['head']}{MASK}", text)
    for secret in _known_secrets(dsns):
        if secret == MASK or secret not in text:
            continue
        if len(secret) < _WHOLE_WORD_BELOW:
            text = re.sub(rf"(?<![\w]){re.escape(secret)}(?![\w])", MASK, text)
        else:
            text = text.replace(secret, MASK)
    return text


def describe_dsn(dsn: str) -> str:
    """``user@host:port/dbname`` for messages — never the password; ``<invalid DSN>`` if it does not parse."""
    try:
        import psycopg
    except ImportError:  # pragma: no cover - callers with a DSN have the postgres extra
        return redact(dsn, dsn)
    try:
        parts = psycopg.conninfo.conninfo_to_dict(dsn)
    except psycopg.ProgrammingError:
        return "<invalid DSN>"
    host = str(parts.get("host") or "localhost")
    if host.startswith("/"):
        host = f"socket {host}"
    where = f"{host}:{parts.get('port') or 5432}/{parts.get('dbname') or parts.get('user') or 'postgres'}"
    # Scrubbed as well: libpq reads "postgresql://u:p/w@h" as host "u", port "p", dbname "w@h".
    return redact(f"{parts['user']}@{where}" if parts.get("user") else where, dsn)


def dsn_problem(dsn: str) -> str | None:
    """Why ``dsn`` is not a connection string libpq accepts (what to fix, password removed), or ``None``."""
    import psycopg

    try:
        psycopg.conninfo.conninfo_to_dict(dsn)
    except psycopg.ProgrammingError as exc:
        reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        return (
            f"the PostgreSQL DSN is not valid ({redact(reason, dsn)}): write it as "
            "postgresql://user:password@host:port/dbname or 'host=… dbname=… user=…', with special "
            "characters in the password percent-encoded in a URL (%40 for @, %25 for %), or leave the "
            "password out and set $PGPASSWORD"
        )
    return None


def connect_failure(dsn: str, exc: BaseException) -> str:
    """What to tell someone whose connection with ``dsn`` failed with ``exc`` (password removed):
    :func:`dsn_problem` when the DSN does not parse, else which server is unreachable and why."""
    problem = dsn_problem(dsn)
    if problem is not None:
        return problem
    reason = (str(exc).strip() or type(exc).__name__).splitlines()[0].strip()
    return (
        f"PostgreSQL at {describe_dsn(dsn)} is unreachable ({redact(reason, dsn)}): check that the server is "
        "running and accepts connections from this machine, and the DSN (pi-memory.dsn, --dsn or "
        f"${DSN_ENV}: host, port, database, user, password)"
    )


class RedactingFilter(logging.Filter):
    """A logging filter that passes every record, with :func:`redact` applied to its text and traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        scrubbed = redact(message)
        if scrubbed != message:
            record.msg, record.args = scrubbed, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        return True


REDACTING_FILTER = RedactingFilter()
#: Loggers that may print a DSN or a driver error: psycopg's own, its pool's.
_DRIVER_LOGGERS = ("psycopg", "psycopg.pool", "psycopg.pq")


def install_log_redaction(*handlers: logging.Handler) -> None:
    """Scrub the driver's loggers (idempotent), and ``handlers`` — every record they emit, from any logger."""
    for name in _DRIVER_LOGGERS:
        logger = logging.getLogger(name)
        if REDACTING_FILTER not in logger.filters:
            logger.addFilter(REDACTING_FILTER)
    for handler in handlers:
        if REDACTING_FILTER not in handler.filters:
            handler.addFilter(REDACTING_FILTER)
