"""Paraphrase acceptance and the fallback to the template text."""

from __future__ import annotations

from typing import Any

import pytest

from compoworld.compose.paraphrase import (
    accept_paraphrase,
    clean_reply,
    leaked_values,
    paraphrase_instruction,
)
from compoworld.llm import LLMError

ORIGINAL = ('First, look up the contacts in CRM whose company is "Acme Corp". Then send an '
            'email in Email with recipient set to the email of the contact in CRM whose first '
            'name is "Bruno" and subject "Quarterly review". Report the id of the sent email '
            "in your final answer.")
FAITHFUL = ('Please find our contacts at "Acme Corp" in the CRM, then email the one whose '
            'first name is "Bruno" with the subject "Quarterly review". Tell me the id of '
            "the email you sent.")
VISIBLE: list[Any] = ["Acme Corp", "Bruno", "Quarterly review"]
HIDDEN: list[Any] = ["bruno.kowalski@acme.com", "msg_0042", 1250.75]


class FakeClient:
    """Stands in for `LLMClient` (same `chat` signature) until the LLM server arrives with
    a later issue: replies come from a script, an exception in it is raised."""

    def __init__(self, *replies: str | Exception) -> None:
        self.replies = list(replies)
        self.requests: list[dict[str, Any]] = []

    def chat(
        self,
        messages: list[dict[str, Any]],
        *,
        response_format: dict[str, Any] | None = None,
        temperature: float = 0,
        max_tokens: int = 1024,
        seed: int | None = None,
    ) -> str:
        self.requests.append({"messages": list(messages), "temperature": temperature,
                              "max_tokens": max_tokens, "seed": seed})
        reply = self.replies.pop(0)
        if isinstance(reply, Exception):
            raise reply
        return reply


def test_accepts_a_faithful_paraphrase():
    assert accept_paraphrase(FAITHFUL, VISIBLE, HIDDEN, original=ORIGINAL) is None


@pytest.mark.parametrize(
    "candidate, reason",
    [
        (FAITHFUL.replace('"Bruno"', "him"), "visible value missing: Bruno"),
        (FAITHFUL.replace("Acme Corp", "acme corp"), "visible value missing: Acme Corp"),
        (FAITHFUL + " Write to BRUNO.KOWALSKI@acme.com.", "hidden value present: bruno."),
        (FAITHFUL + " It should be msg_0042.", "hidden value present: msg_0042"),
        (FAITHFUL + " Send 1250.75 too.", "hidden value present: 1250.75"),
        ("", "too short"),
        ("Bruno.", "too short"),
        (FAITHFUL * 8, "too long"),
    ],
)
def test_rejections(candidate: str, reason: str):
    assert accept_paraphrase(candidate, VISIBLE, HIDDEN, original=ORIGINAL).startswith(reason)


def test_leaks_of_three_characters_or_more():
    assert leaked_values("Dear ANNA, 1000 items, 12.55 each", ["Ann", 100, 12.5]) == ["Ann"]
    assert leaked_values("the 100 items at 12.5", [100, 12.5]) == [100, 12.5]
    assert leaked_values("id 42 is set, flag on", [42, True, None, "on"]) == []
    assert leaked_values('use {"a": 1}', [{"a": 1}]) == [{"a": 1}]


def test_clean_reply_drops_preambles_fences_and_quotes():
    assert clean_reply(f"Sure! Here is the rewrite:\n{FAITHFUL}") == FAITHFUL
    assert clean_reply(f"```text\n{FAITHFUL}\n```") == FAITHFUL
    assert clean_reply("'Do the thing now, please.'") == "Do the thing now, please."


def test_paraphrase_accepted():
    client = FakeClient(f"Here you go:\n{FAITHFUL}")
    assert paraphrase_instruction(ORIGINAL, VISIBLE, HIDDEN, client, seed=3) == (FAITHFUL, None)
    request = client.requests[0]
    assert request["seed"] == 3 and "Quarterly review" in request["messages"][-1]["content"]


def test_second_attempt_hears_why_the_first_failed():
    leaky = FAITHFUL + " The address is bruno.kowalski@acme.com."
    client = FakeClient(leaky, FAITHFUL)
    assert paraphrase_instruction(ORIGINAL, VISIBLE, HIDDEN, client) == (FAITHFUL, None)
    assert "hidden value present" in client.requests[1]["messages"][-1]["content"]


def test_falls_back_to_the_original_on_rejection():
    client = FakeClient(FAITHFUL.replace('"Bruno"', "him"), FAITHFUL + " msg_0042")
    text, reason = paraphrase_instruction(ORIGINAL, VISIBLE, HIDDEN, client, attempts=2)
    assert text == ORIGINAL
    assert reason == "rejected after 2 attempts: hidden value present: msg_0042"


def test_falls_back_to_the_original_on_llm_error():
    client = FakeClient(LLMError("http://localhost:8080 failed 4 times"), FAITHFUL)
    text, reason = paraphrase_instruction(ORIGINAL, VISIBLE, HIDDEN, client)
    assert text == ORIGINAL and reason.startswith("llm error: ") and "failed 4 times" in reason
    assert len(client.requests) == 1
