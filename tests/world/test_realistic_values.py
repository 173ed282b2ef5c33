"""Values across the default selection of the real corpus look real: random tokens (filler
words, `zip_0005` placeholders) are under 1% of generated strings, and each tool's own
generated arguments validate against its parameters schema.

The selection is built as the synthesize stage builds it (bench/values.py); the first run
loads every corpus document once (a few minutes) and caches the candidate rows.
"""

from __future__ import annotations

import random

import pytest

from bench.values import argument_failures, default_selection, token_share

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def specs(corpus) -> list:
    return default_selection(300)


def test_random_tokens_are_under_one_percent_of_generated_strings(specs: list):
    total, bad, samples, examples = token_share(specs, seed=0)
    share = bad / total
    print(f"\nrandom tokens: {bad} of {total} strings ({share:.3%}) over {len(specs)} services")
    for kind in ("status", "category", "version", "role", "region", "sort", "name", "text"):
        print(f"  {kind:10s} {'; '.join(samples.get(kind, [])[:4])}")
    assert len(specs) == 300 and total > 50_000
    assert share < 0.01, examples[:20]


def test_tools_own_arguments_validate_against_their_parameters(specs: list):
    tools, failed, examples = argument_failures(specs, seed=0)
    print(f"\narguments: {failed} of {tools} tools fail their own parameters schema")
    assert tools > 5_000
    # 59 of 11,513 (0.51%) on the business-first selection: oneOf branches an
    # empty object satisfies at once, and repeated items of enum arrays
    assert failed / tools < 0.01, examples[:20]


def test_a_chat_messages_channel_is_a_chat_channel():
    """A message posted to a team chat goes to a channel people have ("support"), never to
    a medium ("phone", "email"); a subscription's channel stays a medium."""
    import random

    from compoworld.world.vocab import maker

    rng = random.Random(3)
    chat = {maker("channel", "chat", "channel")(rng) for _ in range(20)}
    medium = {maker("channel", "subscriptions", "channel")(rng) for _ in range(20)}
    assert chat and not chat & {"email", "sms", "web", "phone", "chat"}
    assert medium <= {"email", "sms", "web", "phone", "chat"}


def test_a_field_described_as_a_mime_type_takes_the_type_its_description_names():
    """SendGrid's `content[].type` ("The MIME type of the content ... (e.g., "text/plain"
    or "text/html")") was drawn as "custom" or "internal": no email body's type."""
    from compoworld.world.schemavalues import value_from_schema

    schema = {"type": "object", "required": ["type"], "properties": {"type": {
        "type": "string", "description": "The MIME type of the content you are including "
        "in your email (e.g., “text/plain” or “text/html”)."}}}
    drawn = {value_from_schema(schema, random.Random(seed), service="sendgrid_com")["type"]
             for seed in range(5)}
    assert drawn == {"text/plain"}
