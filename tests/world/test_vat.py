"""A record's net, tax and gross agree: the tax is a share of the net a country charges
(0-27%), the gross the net and its tax. Fields were drawn one by one, so a Billbee invoice
read a VAT four times its net, and a net of 889.60 under a gross of 126.42. The schema is
an excerpt of Billbee's invoice."""

from __future__ import annotations

import random

from compoworld.world.money import vat_agreement
from compoworld.world.schemavalues import value_from_schema

_NUMBER = {"type": "number", "format": "double"}


def _object(*keys: str) -> dict:
    return {"type": "object", "properties": dict.fromkeys(keys, _NUMBER), "required": []}


_INVOICE = {
    "type": "object",
    "properties": {
        "TotalGross": _NUMBER, "TotalNet": _NUMBER, "TotalVat": _NUMBER,
        "AdditionalFees": {"type": "array",
                           "items": _object("Gross", "Net", "VatAmount", "VatRate")},
        "Positions": {"type": "array", "items": _object(
            "Amount", "GrossValue", "NetValue", "TotalGrossValue", "TotalNetValue",
            "TotalVatAmount", "VatRate")},
    },
    "required": ["TotalGross", "TotalNet", "TotalVat", "AdditionalFees", "Positions"],
}


def _agrees(net: float | None, tax: float | None, gross: float | None) -> bool:
    if net is not None and tax is not None and not 0 <= tax <= 0.27 * net + 0.01:
        return False
    if net is not None and gross is not None and not net <= gross <= 1.27 * net + 0.01:
        return False
    return None in (net, tax, gross) or abs(net + tax - gross) <= 0.01


def test_an_invoices_vat_is_a_share_of_its_net_and_its_gross_their_sum() -> None:
    for seed in range(30):
        invoice = value_from_schema(_INVOICE, random.Random(seed), service="billbee_io",
                                    resource="invoices")
        sums = [(invoice["TotalNet"], invoice["TotalVat"], invoice["TotalGross"])]
        sums += [(fee.get("Net"), fee.get("VatAmount"), fee.get("Gross"))
                 for fee in invoice["AdditionalFees"]]
        for line in invoice["Positions"]:
            sums += [(line.get("NetValue"), None, line.get("GrossValue")),
                     (line.get("TotalNetValue"), line.get("TotalVatAmount"),
                      line.get("TotalGrossValue"))]
        for net, tax, gross in sums:
            assert _agrees(net, tax, gross), (seed, net, tax, gross)


def test_a_line_at_its_vat_rate() -> None:
    """A line's totals are at the line's own `VatRate`, where it states a real one."""
    line = _object("TotalNetValue", "TotalVatAmount", "TotalGrossValue", "VatRate")
    line["required"] = list(line["properties"])
    for seed in range(10):
        value = value_from_schema(line, random.Random(seed), resource="positions")
        if 0 <= value["VatRate"] <= 27:
            share = value["TotalVatAmount"] / value["TotalNetValue"]
            assert abs(share - value["VatRate"] / 100) < 0.01, value


def test_a_vat_four_times_its_net_is_made_a_share_of_it() -> None:
    agree = vat_agreement({"TotalNet": "number", "TotalVat": "number",
                           "TotalGross": "number", "VatRate": "number"})
    invoice = {"TotalNet": 100.0, "TotalVat": 400.0, "TotalGross": 500.0, "VatRate": 19}
    agree(invoice, None)
    assert invoice == {"TotalNet": 420.17, "TotalVat": 79.83, "TotalGross": 500.0,
                       "VatRate": 19}
    # a net drawn above its gross: the gross over 1 + a common rate
    drawn = {"TotalGross": 126.42, "TotalNet": 889.6}
    agree(drawn, None)
    assert drawn == {"TotalGross": 126.42, "TotalNet": 105.35}
    kept = {"TotalGross": 126.42, "TotalNet": 100.0}  # (a 26% VAT: one a country charges)
    agree(kept, None)
    assert kept == {"TotalGross": 126.42, "TotalNet": 100.0}


def test_the_callers_amounts_stay_and_fix_the_others() -> None:
    agree = vat_agreement({"net": "money", "vat": "money", "gross": "money", "rate": "number"})
    asked = {"net": 20.0, "vat": 900.0, "gross": 10.0}
    agree(asked, {"net": 20.0})
    assert asked == {"net": 20.0, "vat": 4.0, "gross": 24.0}
    given = {"net": 50.0, "vat": 5.0, "gross": 1.0, "vat_rate": 80}
    vat_agreement({"net": "money", "vat": "money", "gross": "money",
                   "vat_rate": "number"})(given, {"net": 50.0, "vat": 5.0})
    assert given == {"net": 50.0, "vat": 5.0, "gross": 55.0, "vat_rate": 10}
    assert vat_agreement({"amount": "money", "net_total": "money"}) is None
    assert vat_agreement({"CustomerVatId": "string", "net": "money"}) is None
