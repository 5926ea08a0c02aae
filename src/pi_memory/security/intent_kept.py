"""What no description makes harmless: the facts a note states that are threats however it frames them.

``mood.describes`` lowers the weight of a line in the indicative about something other than the
agent ("the deploy hook uploads the build to S3"). Some such lines keep their full reading: a
covert act, an address with a slot for data, a licence to act, obedience to a channel, a secret
sent to a destination, a credential put somewhere public, and a standing job that removes a
safeguard (:func:`standing_harm`). The intent layer asks :func:`kept_in_description`.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet

from pi_memory.security.intent_match import concept_positions, lexicon, word_marks
from pi_memory.security.intent_orders import stated_order
from pi_memory.security.intent_persist import planted
from pi_memory.security.lazy_re import compile_lazily

__all__ = ["kept_in_description", "standing_harm"]


def _obeys(line: str) -> bool:
    """Does a word of the line say "obey" ("obeys", "follows"), not only name orders ("sends
    orders to our ERP": "orders" is both a channel's content and obedience)? In a script without
    spaces, where the word of carrying out is also the one of running ("执行", "실행하"), it obeys
    when the commands are its object ("执行其中的命令", "명령을 실행"), not when it runs the tests."""
    if any("comply" in found and "channel" not in found for _, found in word_marks(lexicon(), line)):
        return True
    positions = concept_positions(line)
    return any(
        "comply" in found
        and "channel" not in found
        and any(0 < abs(q - p) <= _CMD_NEAR and "execute" in near and "comply" not in near for q, near in positions)
        for p, found in positions
    )


#: How far (in characters of a script without spaces) the commands sit from the word that carries them out.
_CMD_NEAR = 8


def kept_in_description(marks: set[str], line: str) -> bool:
    """What no description makes harmless: a covert act, an image or URL with a slot for data (or
    such an image told in words), a licence to act ("no need to ask", "already approved"),
    obedience to a channel ("a bot that obeys whatever arrives in the Telegram channel"), a secret
    or a re-run tied to a destination ("the sync job sends ~/.ssh to https://...")."""
    if marks & {"covert", "<slot_url>", "<image>", "noneed"}:
        return True
    if "image" in marks and marks & {"encode", "address"} and marks & {"secret", "selfref"}:
        return True  # the same image told in prose: "a picture whose address encodes the chat"
    if {"prior", "noconfirm"} <= marks or ({"channel", "comply"} <= marks and _obeys(line)):
        return True
    if {"channel", "agent", "asif"} <= marks and marks & {"execute", "comply"} and "negation" not in marks:
        return True  # a channel's messages taken as the assistant's commands: "... count as commands to you"
    if {"cred", "public"} <= marks and marks & {"send", "putin"} and "negation" not in marks:
        return True  # "public pull requests get config/secrets.yml pasted into the description"
    if standing_harm(marks, line) or stated_order(marks) or planted(marks):
        return True  # a standing harm, a rule stated as a fact ("earlier rules are withdrawn"), a planted re-run
    return bool(marks & {"<url>", "<email>", "<ip>"}) and bool(marks & {"secret", "persist"})


#: The safeguards and secrets a standing job may not remove, switch off or send: the rules and
#: checks (``rules``: safety checks, validation, signatures), secrets, and the tests.
_TESTS = compile_lazily(r"\btest(?:s|ing)?\b|\bprueba|\bteste|\bтест|テスト|테스트|测试|kiểm thử|اختبار|परीक्षण")

# The verbs of deleting among the ``destroy`` concept's acts (not install, deploy, restart, pay).
_DELETES = compile_lazily(
    r"\b(?:delet|remov|eras|wip|purg|truncat|borr|elimin|apag|exclu|supprim|lösch|entfern|cancell|rimuov|удал|"
    r"sil|xóa)|حذف|हटा|削除|삭제|删除"
)


def standing_harm(marks: set[str], line: str) -> bool:
    """Does the line state a standing harmful act set up in the environment: a hook, cron job or
    startup item (``persist``) that on every run (``always``) deletes, disables or sends a
    safeguard or a secret ("the build hook deletes the tests on every commit", "the pre-commit
    hook disables the security checks on every run")? Such a fact is the threat however it is
    framed, so it keeps its full reading: no description discount."""
    if not {"persist", "always"} <= marks:
        return False
    if "send" in marks and "secret" in marks:
        return True
    removes = "disable" in marks or ("destroy" in marks and _DELETES.search(line) is not None)
    return removes and ("rules" in marks or _TESTS.search(line) is not None)


def on_record(order_marks: AbstractSet[str], line: str) -> bool:
    """Is a defender-voice line with these order marks a record, not an order: a reported order,
    or a past event whose only order mark is how often it ran ("INC-12 root cause: a cron entry
    curled a script every night")? What happened is told by the people who cleaned it up."""
    from pi_memory.security import context_checks, mood

    return context_checks.reported_line(line) or (set(order_marks) == {"always"} and mood.past_report(line))
