"""A stock is named by what it is: a ticker and a company, never a person or a label.

BFCL's trading bot (specs/benchmarks.py) read `{"stock": "Spring Stock"}` in a watchlist
and `{"symbol": "Internal Symbol"}` for a company's ticker, and a stock's name and price made
it a product ("Desk Lamp")."""

from __future__ import annotations

import random
import re

import pytest

from compoworld.world.kindmakers import ticker
from compoworld.world.schemavalues import value_from_schema
from compoworld.world.seeding import draw_pool
from compoworld.world.vocab import field_kind
from compoworld.world.words import COMPANY_NAMES

TICKER = re.compile(r"^[A-Z]{3,4}$")
STOCK = {"type": "object", "properties": {"symbol": {"type": "string"},
                                          "name": {"type": "string"},
                                          "price": {"type": "number"}}}


@pytest.mark.parametrize("field, resource", [("symbol", "stocks"), ("stock", "watchlists"),
                                             ("ticker", "holdings"), ("stock_symbol", None),
                                             ("symbol", "trades")])
def test_a_stock_field_is_a_ticker(field: str, resource: str | None) -> None:
    assert field_kind(field, {"type": "string"}, resource) == "ticker"


@pytest.mark.parametrize("field, resource", [("symbol", "currencies"), ("name", "users"),
                                             ("trader_name", "trades")])
def test_other_symbols_and_people_s_names_are_not(field: str, resource: str) -> None:
    assert field_kind(field, {"type": "string"}, resource) != "ticker"
    assert field_kind(field, {"type": "string"}, resource) != "company_name"


def test_tickers_are_a_company_s_initials() -> None:
    assert ticker("Northwind Traders") == "NTO"
    assert all(TICKER.match(ticker(name)) for name in COMPANY_NAMES)


def test_a_stock_record_has_a_ticker_and_a_company_name_not_a_person_s() -> None:
    pool = draw_pool(5)
    people = {p.name for p in pool.people} | {p.first_name for p in pool.people}
    seen = 0
    for seed in range(40):
        record = value_from_schema(STOCK, random.Random(seed), resource="stocks",
                                   service="bfcl_trading_bot", pool=pool)
        if "symbol" in record:
            assert TICKER.match(record["symbol"]), record
        if "name" in record:
            seen += 1
            assert record["name"] in COMPANY_NAMES and record["name"] not in people, record
    assert seen > 10
    watch = value_from_schema({"type": "object", "properties": {"stock": {"type": "string"}},
                               "required": ["stock"]}, random.Random(1), resource="watchlists")
    assert TICKER.match(watch["stock"]), watch
