"""Service names, tool-name parts and description cleaning."""

from __future__ import annotations

import re

import pytest

from compoworld.specs.text import clean_text, join_text, service_name, snake_words

SERVICE_NAME = re.compile(r"^[a-z0-9]+(_[a-z0-9]+)*$")


@pytest.mark.parametrize(
    ("doc_id", "name"),
    [
        ("amazonaws.com/acm", "amazonaws_com_acm"),
        ("xkcd.com", "xkcd_com"),
        ("crm", "crm"),
        ("amadeus.com/amadeus-hotel-booking", "amadeus_com_amadeus_hotel_booking"),
    ],
)
def test_canonical_ids_keep_a_readable_name(doc_id: str, name: str) -> None:
    assert service_name(doc_id) == name


def test_service_names_are_injective_where_naive_slugs_collide() -> None:
    ids = [
        "vtex.local/Marketplace-APIs", "vtex.local/Marketplace-APIs-", "a.b/c", "a.b.c",
        "a/b.c", "a.b/c-d", "a.b/c_d", "a.b/C-d", "hubapi.com/business units",
        "foo.com/abcdef12", "foo.com/abcdef12-" + "x" * 80, "foo.com/abcdef12-" + "x" * 81,
    ]
    names = [service_name(i) for i in ids]
    assert len(set(names)) == len(ids)
    for name in names:
        assert SERVICE_NAME.match(name) and "__" not in name and len(name) <= 60


def test_non_canonical_ids_get_a_stable_hash_suffix() -> None:
    name = service_name("adyen.com/AccountService")
    assert re.fullmatch(r"adyen_com_account_service_[0-9a-f]{8}", name)
    assert service_name("adyen.com/AccountService") == name


def test_snake_words_keeps_the_distinguishing_tail() -> None:
    assert snake_words("createCustomer") == "create_customer"
    assert snake_words("repos/get-content") == "repos_get_content"
    stem = "users.transitiveMemberOf.GetDirectoryObjectItemAsMicrosoftGraph"
    long_a, long_b = snake_words(stem + "OrgContact"), snake_words(stem + "User")
    assert len(long_a) <= 60 and long_a.startswith("users_") and long_a.endswith("org_contact")
    assert long_a != long_b
    assert snake_words("日本語") == ""


def test_clean_text_strips_markup_and_collapses_space() -> None:
    text = "# Title\n\nSome **bold** and `code`, a [link](http://x.y) and <b>html</b>&amp;co."
    assert clean_text(text) == "Title Some bold and code, a link and html&co."
    assert clean_text(None) == ""


def test_clean_text_trims_at_sentence_then_word_boundary() -> None:
    sentences = "First sentence here. " * 40
    out = clean_text(sentences, 100)
    assert len(out) <= 100 and out.endswith("here.")
    words = "word " * 200
    out = clean_text(words, 50)
    assert len(out) <= 50 and out.endswith("...") and "wor..." not in out


def test_join_text_avoids_repeating_the_summary() -> None:
    assert join_text("List pets", "List pets in the store.") == "List pets in the store."
    assert join_text("List pets", "Paged.") == "List pets. Paged."
    assert join_text(None, "Only a description.") == "Only a description."
    assert join_text("Only a summary", "") == "Only a summary"
