"""Fields of one record that blind reviewers read as contradicting each other: a card
whose brand and type differ, an Indian address in Berlin, an Ecwid `stateName` of another
state than its postal code, a custom field's label under a key it does not fit, a payment
word in a fulfillment status, a cost equal to the sale price, one id twice in a list, a
payment reference as a bank account code, a VAT id of another country. The schemas are
excerpts of real ones (Square, Ecwid, OnSched, Avaza, Big Red Cloud)."""

from __future__ import annotations

import random

from compoworld.world.banking import REGION_NAMES
from compoworld.world.schemavalues import value_from_schema
from compoworld.world.seeding import draw_pool
from compoworld.world.words import CITIES, CITY_REGIONS

_STR = {"type": "string"}
_CITY_COUNTRY = {city: country for city, country, *_ in CITIES}


def _object(props: dict, required: list[str] | None = None) -> dict:
    return {"type": "object", "properties": props, "required": required or list(props)}


def _draws(schema: dict, resource: str, count: int = 30, service: str = ""):
    for seed in range(count):
        yield value_from_schema(schema, random.Random(seed), resource=resource,
                                service=service, pool=draw_pool(seed))


SQUARE_ADDRESS = _object({
    "address_line_1": _STR, "locality": _STR, "administrative_district_level_1": _STR,
    "postal_code": _STR, "country": _STR, "first_name": _STR, "last_name": _STR})


def test_an_address_s_locality_and_state_are_in_its_country():
    for location in _draws(_object({"name": _STR, "address": SQUARE_ADDRESS}), "locations",
                           service="squareup_com"):
        address = location["address"]
        assert _CITY_COUNTRY[address["locality"]] == address["country"], address


SQUARE_CARD = _object({"id": _STR, "card_brand": _STR, "card_type": _STR,
                       "bin": {"type": "string", "maxLength": 6}, "last_4": _STR,
                       "cardholder_name": _STR})
_PREFIXES = {"VISA": ("4",), "MASTERCARD": ("51", "52", "53", "55"),
             "AMERICAN_EXPRESS": ("34", "37"), "DISCOVER": ("6011", "65")}


def test_a_card_s_brand_type_and_bin_are_one_card_s():
    for card in _draws(SQUARE_CARD, "cards", service="squareup_com"):
        assert card["card_type"] in ("CREDIT", "DEBIT", "PREPAID"), card
        assert card["bin"].startswith(_PREFIXES[card["card_brand"]]), card
        assert len(card["last_4"]) == 4 and card["last_4"].isdigit(), card


def test_two_brand_fields_of_one_card_name_one_brand():
    schema = _object({"card_brand": _STR, "card_network": _STR, "card_bin": _STR})
    for card in _draws(schema, "payments"):
        assert card["card_network"] == card["card_brand"], card
        assert card["card_bin"].startswith(_PREFIXES[card["card_brand"]]), card


def test_no_two_items_of_one_list_share_their_own_id():
    item = _object({"ContactID": {"type": "integer"}, "Firstname": _STR})
    service = _object({"id": {"type": "integer"}, "serviceId": {"type": "integer"},
                       "serviceName": _STR})
    schema = _object({"CompanyID": {"type": "integer"},
                      "Contacts": {"type": "array", "items": item, "minItems": 3},
                      "services": {"type": "array", "items": service, "minItems": 3}})
    for company in _draws(schema, "Companies", 60, service="avaza_com"):
        for key, field in (("Contacts", "ContactID"), ("services", "serviceId"),
                           ("services", "id")):
            ids = [row[field] for row in company[key] if field in row]
            assert len(ids) == len(set(ids)), company[key]


def test_a_bank_account_code_is_a_ledger_code_not_a_payment_reference():
    schema = _object({"bankAccountCode": _STR, "total": {"type": "number"}})
    for payment in _draws(schema, "payments", service="bigredcloud_com"):
        assert payment["bankAccountCode"].isdigit(), payment


def test_a_cost_price_is_below_the_sale_price():
    money = {"type": "number", "format": "double"}
    schema = _object({"Name": _STR, "CostPrice": money, "SalePrice": money, "SKU": _STR})
    for item in _draws(schema, "Inventory", service="avaza_com"):
        assert 0.39 * item["SalePrice"] <= item["CostPrice"] <= 0.81 * item["SalePrice"], item


_FULFILLMENT = ("AWAITING_PROCESSING, PROCESSING, SHIPPED, DELIVERED, WILL_NOT_DELIVER, "
                "RETURNED, READY_FOR_PICKUP")
_PAYMENT = "AWAITING_PAYMENT, PAID, CANCELLED, REFUNDED, PARTIALLY_REFUNDED, INCOMPLETE"


def test_a_status_takes_the_words_its_description_lists_and_its_side_s_words():
    schema = _object({
        "fulfillmentStatus": {"type": "string", "description": _FULFILLMENT},
        "paymentStatus": {"type": "string", "description": _PAYMENT},
        "fulfillment_status": _STR, "payment_status": _STR})
    for order in _draws(schema, "orders", service="cloud_elements_com_ecwid_0bd593e4"):
        assert order["fulfillmentStatus"] in _FULFILLMENT.split(", "), order
        assert order["paymentStatus"] in _PAYMENT.split(", "), order
        assert order["fulfillment_status"] not in ("paid", "pending", "refunded"), order
        assert order["payment_status"] not in ("shipped", "delivered", "processing"), order


def test_a_custom_field_sits_under_its_own_label_s_key():
    field = {"type": "object", "additionalProperties": False,
             "properties": {"name": _STR, "value": _STR}}
    schema = _object({"id": _STR, "customFields": {
        "type": "object", "additionalProperties": field}})
    for booking in _draws(schema, "appointments", 40, service="onsched_com_setup"):
        for key, entry in booking["customFields"].items():
            if "name" in entry:
                assert key == entry["name"].lower().replace(" ", "_"), booking


def test_an_ecwid_state_name_is_the_state_of_its_zip_or_its_state_code():
    person = _object({"name": _STR, "postalCode": _STR, "stateName": _STR,
                      "stateOrProvinceCode": _STR, "phone": _STR}, ["name", "stateName"])
    for order in _draws(_object({"billingPerson": person}), "orders", 40,
                        service="cloud_elements_com_ecwid_0bd593e4"):
        found = order["billingPerson"]
        code = found.get("stateOrProvinceCode")
        if list(CITY_REGIONS.values()).count(code) == 1:
            city = next(city for city, region in CITY_REGIONS.items() if region == code)
            assert found["stateName"] == REGION_NAMES[_CITY_COUNTRY[city], code], found
