"""The amounts of one record, made to agree: a fee is a small share of the amount, the net
is the amount less its fees, a total is the subtotal with its tax and shipping, a cost
price is 40-80% of the sale price.

Money leaves are drawn field by field (`values.py`), so before this a payment could show a
net amount larger than its amount, or a total of 83,760 over a subtotal of 578. The
record's first base amount (`amount`, `price`, `subtotal`, `source_amount`...) anchors the
rest; every other money field of the record is worked out from it, in its own form (a
decimal, integer minor units, a string), without a draw of the record's generator, so no
later value shifts. Limits and budgets (`credit_limit`, `max_amount`) are no part of a
transaction and keep their own draw. A field the caller gave keeps its value, and anchors
the others when it is a base amount.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from typing import Any

from compoworld.graph.semtypes import split_words

# What fixes a sampled record's amounts in place, given the caller's overrides.
Agree = Callable[[dict[str, Any], dict[str, Any] | None], None]
# A field that is a share of the base amount, and its share.
_PARTS = {"tax": 0.1, "taxes": 0.1, "vat": 0.2, "gst": 0.1, "fee": 0.03, "fees": 0.03,
          "commission": 0.05, "discount": 0.1, "shipping": 0.05, "freight": 0.05,
          "delivery": 0.05, "tip": 0.1, "surcharge": 0.02, "handling": 0.02}
_FEES = frozenset({"fee", "fees", "commission", "surcharge", "handling"})
_ADDED = frozenset({"tax", "taxes", "vat", "gst", "shipping", "freight", "delivery", "handling"})
_NET = frozenset({"net"})
_TOTAL = frozenset({"total", "gross", "grand"})
# What the seller paid for what it sells (`CostPrice` beside `SalePrice`): below the price.
_COST = frozenset({"cost", "purchase", "buying", "wholesale"})
# Money that is no amount of this record's transaction: keep its own draw.
_OWN = frozenset("limit limits max maximum min minimum threshold budget cap target goal "
                 "credit overdraft allowance quota estimated estimate".split())


def _role(key: str) -> str | None:
    words = set(split_words(key))
    if words & _OWN:
        return None
    if "sub" in words or "subtotal" in words:
        return "base"
    part = next((w for w in split_words(key) if w in _PARTS), None)
    if part is not None:
        return "part:" + part
    if words & _NET:
        return "net"
    if words & _TOTAL:
        return "total"
    if words & _COST:
        return "cost"
    return "base"


def _margin(base: float) -> float:
    """The share of a sale price its cost is (0.40-0.80), by the price itself."""
    return 0.4 + zlib.crc32(repr(base).encode()) % 41 / 100


def _major(value: Any, kind: str | None) -> float | None:
    """An amount in major units (dollars), from its form in a field of JSON type `kind`."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value / 100 if kind == "integer" else float(value)
    if isinstance(value, float):
        return value
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return None
    return None


def _shaped(amount: float, kind: str | None, like: Any, decimals: int = 2) -> Any:
    """`amount` (major units) in the form of a field of JSON type `kind` holding `like`,
    written with its currency's `decimals` (integer minor units: cents, or won for KRW)."""
    if kind == "integer" or (kind is None and isinstance(like, int)):
        return round(amount * 10 ** decimals)
    if isinstance(like, str):
        return f"{amount:.{decimals}f}"
    return round(amount, decimals) if decimals else round(amount)


def money_agreement(kinds: dict[str, str | None], checks: dict[str, Callable[[Any], bool]]
                    ) -> Agree | None:
    """For an object whose money fields are `kinds` (key -> JSON type), a function that
    makes a sampled record's amounts agree in place (given `overrides` stay), or None when
    the object has fewer than two amounts of one transaction."""
    roles = {key: role for key in kinds if (role := _role(key)) is not None}
    if "base" not in roles.values():  # an expense's `cost` is its amount
        roles = {key: "base" if role == "cost" else role for key, role in roles.items()}
    if len(roles) < 2 or "base" not in roles.values():
        return None

    def agree(out: dict[str, Any], overrides: dict[str, Any] | None) -> None:
        given = overrides or {}
        present = [key for key in roles if key in out]
        bases = [key for key in present if roles[key] == "base"]
        anchor = next((key for key in bases if key in given), bases[0] if bases else None)
        if anchor is None or len(present) < 2:
            return
        base = _major(out[anchor], kinds[anchor])
        if base is None:
            return
        base = abs(base)
        parts = {}  # a fee the caller gave is the fee; else its share of the amount
        for key in present:
            if roles[key].startswith("part:"):
                name = roles[key][5:]
                stated = _major(out[key], kinds[key]) if key in given else None
                parts[name] = round(abs(stated) if stated is not None else base * _PARTS[name], 2)
        fees = sum(value for name, value in parts.items() if name in _FEES)
        added = sum(value for name, value in parts.items() if name in _ADDED)
        worth = {"base": base, "net": base - (fees or round(base * 0.03, 2)),
                 "total": base + added - parts.get("discount", 0.0),  # cents that add up
                 "cost": round(base * _margin(base), 2)}
        for key in present:
            if key == anchor or key in given:
                continue
            role = roles[key]
            amount = parts[role[5:]] if role.startswith("part:") else worth[role]
            value = _shaped(amount, kinds[key], out[key])
            if checks[key](value):
                out[key] = value

    return agree


# Words of a tax amount (`TotalVat`, `VatAmount`), of a rate (`VatRate`, `tax_percent`),
# and of fields no net-VAT-gross sum (`CustomerVatId`, `vat_number`, `TaxMode`; a gross
# weight or salary is more than its net by no VAT).
_TAX = frozenset({"tax", "taxes", "vat", "gst"})
_RATE = frozenset({"rate", "percent", "percentage", "pct"})
_NOT_SUMS = frozenset("id number no code mode type flags included exempt class category "
                      "country reg registration weight mass volume profit margin salary "
                      "wage wages pay income earnings revenue".split())
_FILLERS = frozenset({"amount", "value", "sum"})
# The VAT share where nothing in the record says one, and the highest one anywhere (27%).
_VAT = 0.2
_TOP_VAT = 0.27


def _sum_role(key: str) -> tuple[str, frozenset[str]] | None:
    """A field's part in a net-tax-gross sum (`net`, `tax`, `gross`, `rate`) and the words
    that tie it to the others of its sum (`TotalNetValue`, `TotalVatAmount`: `total`)."""
    words = set(split_words(key))
    if words & (_NOT_SUMS | _OWN):
        return None
    if words & _TAX:
        role, used = ("rate" if words & _RATE else "tax"), _TAX | _RATE
    elif "net" in words or "gross" in words:
        role, used = ("net" if "net" in words else "gross"), {"net", "gross"}
    else:
        return None
    return role, frozenset(words - used - _FILLERS)


def _number(value: Any) -> float | None:
    return None if isinstance(value, bool) else _major(value, None)


def _like(amount: float, like: Any) -> Any:
    """`amount` in the form of the field's drawn value (a whole number, a string, a
    decimal)."""
    if isinstance(like, int):
        return round(amount)
    return f"{amount:.2f}" if isinstance(like, str) else round(amount, 2)


def _share(out: dict[str, Any], values: dict[str, float], keys: dict[str, str],
           rates: list[str]) -> float:
    """The VAT share of a sum: its rate's (20 or 0.2), else the one its drawn amounts
    make (a net and its gross, or its tax), where it is one a country charges (0-27%);
    else a common one."""
    for key in rates:
        rate = _number(out.get(key))
        share = None if rate is None else rate / 100 if rate > 1 else rate
        if share is not None and 0 <= share <= _TOP_VAT:
            return share
    net, tax, gross = (next((values[k] for k, r in keys.items() if r == role and k in values),
                            None) for role in ("net", "tax", "gross"))
    drawn = (gross / net - 1 if net and gross is not None else None,
             tax / net if net and tax is not None else None,
             tax / (gross - tax) if tax is not None and gross is not None and gross != tax
             else None)
    return next((share for share in drawn if share is not None and 0 <= share <= _TOP_VAT),
                _VAT)


def vat_agreement(kinds: dict[str, str]) -> Agree | None:
    """For an object whose fields have semantic types `kinds`, a function that makes each
    of its net-tax-gross sums agree in place: the tax a share of the net a country charges
    (0-27%, the record's rate where it states one), the gross the net and its tax, the
    rate that share. A Billbee invoice read a VAT four times its net, and a net of 889.60
    under a gross of 126.42. The caller's amounts stay and fix the others; else the gross
    anchors (the net where the record has none). None when no sum has two of a net, a tax
    and a gross of one name."""
    sums: dict[frozenset[str], dict[str, str]] = {}
    for key, kind in kinds.items():
        found = _sum_role(key) if kind in ("money", "number", "integer") else None
        if found is not None:
            sums.setdefault(found[1], {})[key] = found[0]
    # a sum with no rate of its own is at the record's (a line's `TotalVatAmount` at its
    # `VatRate`)
    rates = [key for keys in sums.values() for key, role in keys.items() if role == "rate"]
    sums = {tie: keys for tie, keys in sums.items()
            if len(set(keys.values()) & {"net", "tax", "gross"}) >= 2}
    if not sums:
        return None

    def agree(out: dict[str, Any], overrides: dict[str, Any] | None) -> None:
        for keys in sums.values():
            own = [key for key, role in keys.items() if role == "rate"]
            _agree_sum(out, keys, own or rates, overrides or {})

    return agree


def _agree_sum(out: dict[str, Any], keys: dict[str, str], rates: list[str],
               given: dict[str, Any]) -> None:
    """One net-tax-gross sum of `out` (`keys`: field -> role) made to agree, at the rate
    of the first of `rates` that states one."""
    values = {key: value for key in keys if key in out
              and (value := _number(out[key])) is not None}
    fixed = {keys[key]: value for key, value in values.items() if key in given}
    drawn = {keys[key]: value for key, value in values.items() if keys[key] != "rate"}
    if not drawn:
        return
    share = _share(out, values, keys, rates)
    # whole units where the amounts are whole numbers, else cents: the parts add up
    places = 0 if all(isinstance(out[key], int) for key in values
                      if keys[key] != "rate") else 2
    net, tax, gross = (fixed.get(role) for role in ("net", "tax", "gross"))
    if net is None and gross is None and tax is None:
        gross, net = drawn.get("gross"), drawn.get("net") if "gross" not in drawn else None
        if gross is None and net is None:
            return  # a tax alone is its own draw
    if net is None:
        net = round(gross - tax if tax is not None else gross / (1 + share) if gross
                    is not None else tax / share if share else 0.0, places)
    tax = tax if tax is not None else round(gross - net if gross is not None else
                                            net * share, places)
    worth = {"net": net, "tax": tax, "gross": gross if gross is not None else net + tax,
             # (the caller's net and tax say their rate)
             "rate": tax / net if net and len(fixed.keys() - {"rate"}) >= 2 else share}
    for key, role in keys.items():
        if key in values and key not in given:
            amount = worth[role] * 100 if role == "rate" and values[key] > 1 else worth[role]
            out[key] = _like(amount, out[key])


# Units of a currency per US dollar, for the currencies whose amounts are large numbers
# (a KRW payment of 10.31 is a few cents), with the decimals they are written with.
_PER_DOLLAR = {"JPY": (150, 0), "KRW": (1400, 0), "VND": (25000, 0), "IDR": (16000, 0),
               "CLP": (950, 0), "COP": (4000, 0), "HUF": (360, 0), "ISK": (140, 0),
               "INR": (85, 2), "PHP": (58, 2), "THB": (35, 2), "RUB": (90, 2),
               "MXN": (18, 2), "ZAR": (18, 2), "TRY": (34, 2)}


def currency_scale(kinds: dict[str, str | None], currencies: list[str],
                   checks: dict[str, Callable[[Any], bool]]) -> Agree | None:
    """For an object with money fields `kinds` (key -> JSON type) and currency fields
    `currencies`, a function that puts a sampled record's drawn amounts in its currency's
    scale (a KRW amount of 14,434, not 10.31); given amounts stay. None when the object has
    no money and currency both."""
    if not kinds or not currencies:
        return None

    def scale(out: dict[str, Any], overrides: dict[str, Any] | None) -> None:
        code = next((out[key] for key in currencies if isinstance(out.get(key), str)), None)
        rate, decimals = _PER_DOLLAR.get(str(code).upper(), (1, 2))
        given = overrides or {}
        if rate == 1 or any(key in given for key in kinds):
            return  # an amount given in this currency is in its scale already
        for key, kind in kinds.items():
            major = _major(out.get(key), kind) if key in out else None
            if major is None:
                continue
            value = _shaped(round(major * rate, decimals), kind, out[key], decimals)
            if checks[key](value):
                out[key] = value

    return scale
