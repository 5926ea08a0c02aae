"""Message builders shared by the session tests ("user(x)" and "asst(x)" in reference §7)."""

from __future__ import annotations

import itertools
from typing import Any

_clock = itertools.count(1733234400000, 1000)


def user(text: str = "hi", **extra: Any) -> dict[str, Any]:
    return {"role": "user", "content": [{"type": "text", "text": text}], "timestamp": next(_clock), **extra}


def asst(text: str = "ok", provider: str = "anthropic", model: str = "claude-test", **extra: Any) -> dict[str, Any]:
    message: dict[str, Any] = {
        "role": "assistant",
        "content": [{"type": "text", "text": text}],
        "api": "anthropic-messages",
        "provider": provider,
        "model": model,
        "usage": {
            "input": 1,
            "output": 1,
            "cacheRead": 0,
            "cacheWrite": 0,
            "totalTokens": 2,
            "cost": {"input": 0.000003, "output": 0.000015, "cacheRead": 0, "cacheWrite": 0, "total": 0.000018},
        },
        "stopReason": "stop",
        "timestamp": next(_clock),
    }
    message.update(extra)
    return message


def chain(sm: Any, n: int) -> list[str]:
    """Append ``n`` messages alternating user/assistant to ``sm``; their ids."""
    return [sm.append_message(user(str(i)) if i % 2 == 0 else asst(str(i))) for i in range(n)]
