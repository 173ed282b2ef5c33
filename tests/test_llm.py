"""The client's failure paths against real local endpoints: malformed replies are retried,
`Retry-After` is honoured within a retry budget, and a hanging endpoint is bounded in time.
(tests/worldmodel/test_llm_client.py covers the ordinary retry policy.)"""

from __future__ import annotations

import time

import pytest

from compoworld.llm import LLMClient, LLMError
from tests.rollout.endpoints import Endpoint, hanging_endpoint, malformed, ok, rate_limited

HI = [{"role": "user", "content": "hi"}]


class FakeTime:
    """A clock that the client's sleeps move forward, so waits cost no real time."""

    def __init__(self) -> None:
        self.now = 0.0
        self.sleeps: list[float] = []

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds

    def clock(self) -> float:
        return self.now


def test_a_malformed_reply_is_retried_then_an_llm_error():
    with Endpoint(lambda n: malformed()) as endpoint:
        client = LLMClient(endpoint.base_url, "m", max_retries=3, sleep=lambda s: None)
        with pytest.raises(LLMError, match="failed 4 times; last: JSONDecodeError"):
            client.chat(HI)
    assert len(endpoint.requests) == 4
    assert client.stats == {"calls": 1, "retries": 3, "failures": 1}


@pytest.mark.parametrize("body", [b"", b"[]", b"{}", b'{"choices": [{}]}',
                                  b'{"choices": [{"message": {"content": 5}}]}'])
def test_a_reply_that_is_not_a_completion_is_retried(body: bytes):
    answers = [(200, {}, body), ok("fine")]
    with Endpoint(lambda n: answers[n]) as endpoint:
        client = LLMClient(endpoint.base_url, "m", sleep=lambda s: None)
        assert client.chat(HI) == "fine"
    assert client.stats["retries"] == 1


def test_one_malformed_reply_in_ten_costs_a_retry_not_a_call():
    with Endpoint(lambda n: malformed() if n % 10 == 9 else ok(f"reply {n}")) as endpoint:
        client = LLMClient(endpoint.base_url, "m", sleep=lambda s: None)
        replies = [client.chat(HI) for _ in range(20)]
    assert len(replies) == 20 and replies[-1] == "reply 21"  # requests 9 and 19 were bad
    assert client.stats == {"calls": 20, "retries": 2, "failures": 0}


@pytest.mark.parametrize(("retry_after", "budget", "sleeps", "requests"), [
    ("20", 30.0, [20.0], 2),  # 20 s waited; 20 s more would end past 30 s
    ("20", 50.0, [20.0, 20.0], 3),  # the budget is configurable
    ("120", 30.0, [], 1),  # longer than the whole budget: no point waiting at all
])
def test_retry_after_is_honoured_within_the_retry_budget(retry_after, budget, sleeps, requests):
    fake = FakeTime()
    with Endpoint(lambda n: rate_limited(retry_after)) as endpoint:
        client = LLMClient(endpoint.base_url, "m", max_retries=5, retry_budget=budget,
                           sleep=fake.sleep, clock=fake.clock)
        with pytest.raises(LLMError, match=f"past the {budget:g} s retry budget"):
            client.chat(HI)
    assert fake.sleeps == sleeps and len(endpoint.requests) == requests


def test_a_hanging_endpoint_is_bounded_by_the_timeout_and_the_budget():
    with hanging_endpoint() as url:
        client = LLMClient(url, "m", timeout=0.5, max_retries=10, retry_budget=2)
        started = time.perf_counter()
        with pytest.raises(LLMError, match="Timeout"):
            client.chat(HI)
        seconds = time.perf_counter() - started
    # tries at 0 and 1 s, then a third would start past 2 s; without a budget, 11 tries
    # and their backoff would take a minute
    assert seconds < 4.0
    assert client.stats["retries"] >= 1
