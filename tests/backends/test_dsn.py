"""The DSN redactor: whatever shape a DSN or a driver error takes, its password never comes out.

Driver errors are real: psycopg parses (and fails to parse) each DSN here, and the unreachable
cases connect to a closed port. No server is needed: a malformed DSN fails before connecting.
"""

from __future__ import annotations

import io
import logging

import psycopg
import pytest

from pi_memory.backends import connect_failure, describe_dsn, redact, remember_dsn
from pi_memory.backends.dsn import dsn_problem, dsn_secrets, install_log_redaction

PW = "Hunter2Secret"

#: DSN spellings × the password they hold (as written in the DSN).
MALFORMED = [
    f"postgresql://agent:{PW}@[::1",                         # unterminated IPv6 host: libpq quotes the URI
    f"postgresql://agent:{PW}%zz@localhost/db",              # bad percent escape: libpq quotes the token
    f"postgres://agent:{PW}@localhost:5432/db?bogus=1",      # unknown query parameter
    f"host=localhost password='{PW}",                        # unterminated quote
    f"host=localhost password={PW} bogus=1",                 # unknown keyword
    f"postgresql://agent@localhost/db?password={PW}&x=1",    # password as a query parameter
]
WELL_FORMED = [
    f"postgresql://agent:{PW}@127.0.0.1:1/memory",
    f"postgresql://agent@127.0.0.1:1/memory?sslmode=disable&password={PW}",
    f"host=127.0.0.1 port=1 dbname=memory user=agent password={PW}",
    f"host=127.0.0.1 port=1 user=agent password='{PW} with spaces'",
    f"postgresql://agent:{PW}%40x@127.0.0.1:1/memory",     # percent-encoded "@" inside the password
]


def driver_error(dsn: str) -> psycopg.Error:
    """The exception psycopg really raises connecting with ``dsn`` (no server listens on port 1)."""
    try:
        psycopg.connect(dsn, connect_timeout=2).close()
    except psycopg.Error as exc:
        return exc
    raise AssertionError(f"connected with {dsn!r}")


@pytest.mark.parametrize("dsn", MALFORMED)
def test_a_malformed_dsn_is_a_clear_problem_without_the_password(dsn: str) -> None:
    exc = driver_error(dsn)
    problem = dsn_problem(dsn)
    assert problem is not None and problem.startswith("the PostgreSQL DSN is not valid (")
    assert PW not in problem and PW not in connect_failure(dsn, exc) and PW not in describe_dsn(dsn)
    assert PW not in redact(str(exc), dsn)  # the driver's own text, scrubbed


@pytest.mark.parametrize("dsn", WELL_FORMED)
def test_an_unreachable_server_is_named_user_at_host_without_the_password(dsn: str) -> None:
    assert dsn_problem(dsn) is None
    assert describe_dsn(dsn).startswith("agent@127.0.0.1:1/")
    message = connect_failure(dsn, driver_error(dsn))
    assert "is unreachable" in message and PW not in message
    assert PW not in redact(f"failed with {dsn!r}: {dsn}", dsn)


@pytest.mark.parametrize("text", [
    f'in URI: "postgresql://agent:{PW}@[::1"',
    f"postgresql://agent:{PW}@db.internal/agents",
    f"postgresql://agent:p@ss/{PW}@db/x",
    f"?password={PW}&sslmode=require",
    f"host=db password={PW} user=agent",
    f"host=db password = '{PW} and more' user=agent",
    f"sslpassword={PW}",
    f"PGPASSWORD={PW} pi-memory status",
])
def test_password_shapes_are_scrubbed_without_knowing_the_dsn(text: str) -> None:
    assert PW not in redact(text)


def test_known_passwords_are_scrubbed_wherever_they_stand(monkeypatch: pytest.MonkeyPatch) -> None:
    """A driver may quote the password alone; the literal is removed for every DSN known."""
    fresh = "NeverOpenedBefore9"  # not remembered by any earlier test of this process
    quoted = f'invalid percent-encoded token: "{fresh}%zz"'
    assert fresh in redact(quoted)  # nothing says it is a password...
    assert fresh not in redact(quoted, f"postgresql://agent:{fresh}%zz@h/db")  # ...until the DSN is given
    monkeypatch.setenv("PGPASSWORD", "FromTheEnvironment")
    assert redact("auth with FromTheEnvironment failed") == "auth with *** failed"
    monkeypatch.setenv("PI_MEMORY_DSN", "postgresql://agent:EnvDsnSecret@h/db")
    assert "EnvDsnSecret" not in redact("token EnvDsnSecret")
    remember_dsn("host=h password=RememberedSecret")
    assert redact("a log line with RememberedSecret in it") == "a log line with *** in it"


def test_a_short_password_is_scrubbed_as_a_word_only() -> None:
    dsn = "postgresql://agent:pw@[::1"
    assert redact("token pw rejected; password policy", dsn) == "token *** rejected; password policy"
    assert redact("nothing to hide", dsn) == "nothing to hide"


def test_describe_dsn_never_shows_a_password_even_when_libpq_misreads_the_url() -> None:
    # An unencoded "/" ends the authority for libpq: host "agent", port "p", dbname "w@h/db".
    assert "p/w" not in describe_dsn("postgresql://agent:p/w@h/db")
    assert describe_dsn("postgresql://agent:x@db.internal/agents") == "agent@db.internal:5432/agents"
    assert describe_dsn("postgresql://%zz") == "<invalid DSN>"


def test_the_drivers_loggers_are_scrubbed(monkeypatch: pytest.MonkeyPatch) -> None:
    """psycopg's pool logs connection errors (to stderr when nothing is configured)."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    pool_log = logging.getLogger("psycopg.pool")
    pool_log.addHandler(handler)
    monkeypatch.setattr(pool_log, "propagate", False)
    try:
        remember_dsn(f"postgresql://agent:{PW}@[::1")
        pool_log.warning("error connecting in %r: %s", "pool", f'URI: "postgresql://agent:{PW}@[::1"')
        try:
            raise RuntimeError(f"host=h password={PW}")
        except RuntimeError:
            pool_log.exception("failed")
    finally:
        pool_log.removeHandler(handler)
    assert "error connecting in 'pool'" in stream.getvalue() and "RuntimeError" in stream.getvalue()
    assert PW not in stream.getvalue()


def test_a_handler_given_to_install_log_redaction_scrubs_every_logger() -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    install_log_redaction(handler)
    handler.handle(logging.LogRecord("any.module", logging.WARNING, __file__, 1, "dsn %s", (f"password={PW}",), None))
    assert stream.getvalue() == "dsn password=***\n"


def test_every_spelling_of_a_password_is_known() -> None:
    assert dsn_secrets(f"host=h password='{PW} \\'q'") >= {f"{PW} 'q"}
    assert dsn_secrets(f"postgresql://a:{PW}%40x@h/db") >= {f"{PW}%40x", f"{PW}@x"}
    assert dsn_secrets("postgresql://agent@h/db") == set()
