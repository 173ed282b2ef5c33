"""The pool entities that given values name, so a value can be built around them.

`index_pool(pool)` maps lower-cased identifying strings (an email, a name, a city, a
company's domain, a phone) to their entity; `find_anchor(values, index)` gives, per kind,
the first entity some value names: a call that passes `elena.garcia@acme.com` answers about
Elena Garcia, and one that passes `Paris` about Paris.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from compoworld.world.seeds import derive_seed
from compoworld.world.words import CITIES, make_place

if TYPE_CHECKING:
    from compoworld.world.seeding import Pool


def index_pool(pool: Pool | None) -> dict[str, tuple[str, Any]]:
    """Lower-cased identifying strings (emails, names, cities, ...) -> (kind, entity)."""
    index: dict[str, tuple[str, Any]] = {}
    for row in CITIES:  # known cities anchor a place even without a pool
        index[row[0].lower()] = ("place", make_place(random.Random(derive_seed("city", row[0])),
                                                     row))
    if pool is None:
        return index
    for place in pool.places:
        index[place.city.lower()] = ("place", place)
    for product in pool.products:
        index[product.title.lower()] = ("product", product)
    for company in pool.companies:
        for text in (company.name, company.domain, company.url):
            index[text.lower()] = ("company", company)
    for person in pool.everyone:
        for text in (person.email, person.name, person.username, person.phone):
            index[text.lower()] = ("person", person)
    return index


def find_anchor(values: Iterable[Any], index: dict[str, tuple[str, Any]]) -> dict[str, Any]:
    """The entities that some of `values` name (first match per kind)."""
    anchor: dict[str, Any] = {}
    for value in values:
        if isinstance(value, str) and value:
            hit = index.get(value.lower())
            if hit is not None:
                anchor.setdefault(hit[0], hit[1])
    return anchor
