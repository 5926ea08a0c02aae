"""Security: the threat scanner that guards memory writes and prompt snapshots."""

from pi_memory.security.threats import (
    INVISIBLE_CHARS,
    MAX_SCAN_CHARS,
    SCOPES,
    Finding,
    first_threat_message,
    rule_findings,
    scan,
    threat_ids,
)

__all__ = [
    "INVISIBLE_CHARS",
    "MAX_SCAN_CHARS",
    "SCOPES",
    "Finding",
    "first_threat_message",
    "rule_findings",
    "scan",
    "threat_ids",
]
