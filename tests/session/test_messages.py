"""``session/messages.py``: what session messages become for the LLM (pi's convertToLlm)."""

from __future__ import annotations

from pi_memory.session import convert_to_llm
from pi_memory.session.messages import bash_execution_to_text


def test_42_summary_texts() -> None:
    llm = convert_to_llm(
        [
            {"role": "compactionSummary", "summary": "S", "tokensBefore": 1, "timestamp": 1},
            {"role": "branchSummary", "summary": "S", "fromId": "x", "timestamp": 2},
        ]
    )
    assert llm[0]["content"][0]["text"] == (
        "The conversation history before this point was compacted into the following summary:\n\n"
        "<summary>\nS\n</summary>"
    )
    assert llm[1]["content"][0]["text"] == (
        "The following is a summary of a branch that this conversation came back from:\n\n<summary>\nS</summary>"
    )


def test_43_bash_execution_text() -> None:
    message = {
        "role": "bashExecution",
        "command": "ls",
        "output": "",
        "exitCode": 2,
        "cancelled": False,
        "truncated": False,
        "timestamp": 1,
    }
    assert bash_execution_to_text(message) == "Ran `ls`\n(no output)\n\nCommand exited with code 2"
    assert convert_to_llm([message])[0]["content"][0]["text"].startswith("Ran `ls`")
    assert convert_to_llm([{**message, "excludeFromContext": True}]) == []
    long = {**message, "output": "x", "exitCode": 0, "cancelled": True, "truncated": True, "fullOutputPath": "/f"}
    assert (
        bash_execution_to_text(long)
        == "Ran `ls`\n```\nx\n```\n\n(command cancelled)\n\n[Output truncated. Full output: /f]"
    )
