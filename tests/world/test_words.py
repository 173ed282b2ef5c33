"""The cast's words read as a real small business's: names, companies, product lines."""

from __future__ import annotations

from compoworld.world.words import COMPANY_NAMES, LAST_NAMES, PRODUCT_LINES


def test_no_surname_is_of_one_gender() -> None:
    """Any first name goes with any surname: no "Liam Ivanova", no "Ivan Kowalski" for a
    woman, so no surname ends the way only a man's or only a woman's does."""
    gendered = ("ova", "eva", "ina", "ska", "ski", "sky", "aya")
    assert not [name for name in LAST_NAMES if name.lower().endswith(gendered)]


def test_companies_are_named_as_small_businesses_are_never_as_fiction_s() -> None:
    """"Tyrell Systems", "Wonka Confectionery", "Aperture Science" mark a world as made up."""
    fiction = {"Tyrell Systems", "Wonka Confectionery", "Aperture Science", "Acme Corp",
               "Initech", "Umbrella Corporation", "Cyberdyne Systems"}
    assert not fiction & set(COMPANY_NAMES)
    assert not {word for name in COMPANY_NAMES for word in name.split()} & {
        "Tyrell", "Wonka", "Aperture", "Initech", "Umbrella", "Cyberdyne"}


def test_a_product_line_is_a_shop_s_never_a_note_to_a_colleague() -> None:
    """No "Smart Watch. Remember to update the roadmap": a listing speaks to customers."""
    for line in PRODUCT_LINES:
        assert not {"remember", "roadmap", "todo", "tbd", "fixme"} & set(
            line.lower().rstrip(".!").replace(",", "").split()), line
