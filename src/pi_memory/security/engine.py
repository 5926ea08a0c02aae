"""The rule engine's public face: rules (``rule``), the anchor index (``index``) and the
matcher (``matcher``) that runs a rule table over one normalised view.

The rule tables import :func:`rule` and the scope levels from here.
"""

from __future__ import annotations

from pi_memory.security.index import RuleIndex, find_anchors
from pi_memory.security.matcher import run_rules
from pi_memory.security.rule import ALL, CONTEXT, SCOPE_LEVELS, STRICT, Check, Hit, Rule, anchor_key, rule

__all__ = [
    "ALL", "CONTEXT", "SCOPE_LEVELS", "STRICT", "Check", "Hit", "Rule", "RuleIndex", "anchor_key",
    "find_anchors", "rule", "run_rules",
]
