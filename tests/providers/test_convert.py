"""The message preparation both SDK providers share (:mod:`pi_memory.providers.convert`)."""

from __future__ import annotations

from pi_memory.providers import Context, Model, prepare_messages, system_prompt_text

MODEL = Model(id="m", name="m", api="openai-completions", provider="p", base_url="http://x", input=("text",))


def test_text_only_models_get_image_placeholders() -> None:
    image = {"type": "image", "data": "AA", "mimeType": "image/png"}
    out = prepare_messages(Context(messages=[
        {"role": "user", "content": [{"type": "text", "text": "see"}, image, image], "timestamp": 1},
        {"role": "toolResult", "toolCallId": "c", "toolName": "t", "content": [image], "isError": False,
         "timestamp": 2},
    ]), MODEL)
    assert out[0]["content"] == [{"type": "text", "text": "see"},
                                 {"type": "text", "text": "(image omitted: model does not support images)"}]
    assert out[1]["content"] == [{"type": "text", "text": "(tool image omitted: model does not support images)"}]


def test_foreign_thinking_is_dropped_and_ids_renamed_consistently() -> None:
    foreign = {"role": "assistant", "api": "anthropic-messages", "provider": "anthropic", "model": "claude",
               "stopReason": "toolUse", "timestamp": 1, "content": [
                   {"type": "thinking", "thinking": "secret", "thinkingSignature": "sig"},
                   {"type": "text", "text": "hi", "textSignature": "t"},
                   {"type": "toolCall", "id": "a|b", "name": "t", "arguments": {}, "thoughtSignature": "g"}]}
    result = {"role": "toolResult", "toolCallId": "a|b", "toolName": "t", "content": [], "isError": False,
              "timestamp": 2}
    out = prepare_messages(Context(messages=[foreign, result]), MODEL, lambda i: i.replace("|", "_"))
    assert out[0]["content"] == [{"type": "text", "text": "hi"},
                                 {"type": "toolCall", "id": "a_b", "name": "t", "arguments": {}}]
    assert out[1]["toolCallId"] == "a_b"
    assert foreign["content"][2]["id"] == "a|b"  # the session's own dicts are never modified


def test_system_prompt_from_system_messages() -> None:
    messages = [{"role": "system", "content": "Base.", "sections": {"mem": "MEMORY: tea"}, "timestamp": 1},
                {"role": "user", "content": "hi", "timestamp": 2},
                {"role": "system", "content": "Also this.", "timestamp": 3}]
    assert system_prompt_text(Context(messages=messages)) == "Base.\n\nAlso this.\n\nMEMORY: tea"
    assert system_prompt_text(Context(system_prompt="Explicit", messages=messages)) == "Explicit"
    assert [m["role"] for m in prepare_messages(Context(messages=messages), MODEL)] == ["user"]
