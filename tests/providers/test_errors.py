"""Provider failures as ``errorMessage`` text: connection failures keep the words readers look for."""

from __future__ import annotations

import anthropic
import openai
import pytest

from pi_memory.providers import is_connection_error
from pi_memory.providers._errors import describe_error


def _request(sdk: object) -> object:
    """A request of the HTTP client the SDK release was built on."""
    client = anthropic.Anthropic(api_key="x", base_url="http://127.0.0.1:9") if sdk is anthropic else openai.OpenAI(
        api_key="x", base_url="http://127.0.0.1:9"
    )
    return client._client.build_request("POST", "http://127.0.0.1:9/v1/messages")


@pytest.mark.parametrize("sdk", [anthropic, openai])
def test_connection_failures_lead_with_the_classic_words_whatever_the_sdk_says(sdk: object) -> None:
    request = _request(sdk)
    refused = sdk.APIConnectionError(message="Connection to 127.0.0.1:9 failed: [Errno 111] refused", request=request)  # type: ignore[attr-defined]
    classic = sdk.APIConnectionError(request=request)  # type: ignore[attr-defined]
    slow = sdk.APITimeoutError(request)  # type: ignore[attr-defined]
    assert describe_error(refused).startswith("Connection error: Connection to 127.0.0.1:9 failed")
    assert describe_error(classic).startswith("Connection error")
    assert "Connection error: Connection" not in describe_error(classic)  # never doubled
    assert describe_error(slow).startswith("Request timed out")
    assert all(is_connection_error(describe_error(e)) for e in (refused, classic, slow))


def test_other_failures_are_not_reworded() -> None:
    assert describe_error(ValueError("bad value")) == "bad value"
    assert not is_connection_error(describe_error(ValueError("Connection to the past failed us")))


@pytest.mark.parametrize(("text", "unreachable"), [
    ("Connection error.", True),
    ("Request timed out.", True),
    ("Connection to api.example.com failed: Name or service not known", True),
    ("Request to api.example.com timed out after 600s", True),
    ("401 authentication_error: invalid x-api-key", False),
    ("Connection pool is healthy", False),
])
def test_recorded_messages_from_either_sdk_wording(text: str, unreachable: bool) -> None:
    assert is_connection_error(text) is unreachable
