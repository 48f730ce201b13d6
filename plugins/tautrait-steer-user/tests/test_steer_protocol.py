"""The request body the client sends and the validation a server applies."""

from __future__ import annotations

import pytest
from tautrait_steer_user.errors import InvalidSteerRequest
from tautrait_steer_user.protocol import SteerRequest, parse_request, reduce_messages

from tautrait_core import TraitMix


def test_body_sends_traits_as_words_and_upstream_defaults() -> None:
    traits = TraitMix.from_trait_dict({"skepticism": 2, "impatience": "low"})
    request = SteerRequest(traits, [{"role": "user", "content": "Hi"}])
    assert request.body() == {
        "trait_dict": {"impatience": "low", "skeptical": "high"},
        "messages": [{"role": "user", "content": "Hi"}],
        "temperature": 0.7,
        "max_tokens": 256,
    }


def test_messages_are_reduced_to_role_and_content() -> None:
    messages = [
        {"role": "system", "content": "Be a customer.", "name": "x"},
        {"role": "assistant", "content": None, "tool_calls": []},
    ]
    assert reduce_messages(messages) == [
        {"role": "system", "content": "Be a customer."},
        {"role": "assistant", "content": ""},
    ]


def test_parse_request_accepts_words_numbers_and_the_alias() -> None:
    request = parse_request(
        {
            "trait_dict": {"skepticism": "medium", "confusion": 2},
            "messages": [{"role": "user", "content": "Hello"}],
        }
    )
    assert request.traits.traits == {"confusion": 2, "skeptical": 1}
    assert (request.temperature, request.max_tokens) == (0.7, 256)


@pytest.mark.parametrize(
    ("body", "complaint"),
    [
        ([], "JSON object"),
        ({"messages": []}, "messages"),
        ({"messages": [{"role": "robot", "content": "x"}]}, r"messages\[0\]"),
        ({"messages": [{"role": "user", "content": 3}]}, "content must be a string"),
        ({"trait_dict": {"grumpy": "high"}, "messages": [{"role": "user"}]}, "unknown trait"),
        ({"trait_dict": {"impatience": "extreme"}, "messages": [{"role": "user"}]}, "intensity"),
        ({"messages": [{"role": "user"}], "temperature": "hot"}, "temperature"),
        ({"messages": [{"role": "user"}], "max_tokens": 0}, "max_tokens"),
        ({"messages": [{"role": "user"}], "max_tokens": True}, "max_tokens"),
    ],
)
def test_parse_request_names_what_is_wrong(body: object, complaint: str) -> None:
    with pytest.raises(InvalidSteerRequest, match=complaint):
        parse_request(body)
