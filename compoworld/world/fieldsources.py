"""Where a schema field's value comes from: which entity, in which role, from which pool.

Inside one object, fields that describe the same person (email, first/last name, phone,
address, ...) come from one person; fields with a role prefix (`to_email`, `sender_name`,
`owner_email`) get another person per role. With a `pool` (services/world.py) the people,
companies, places and products are the pool's, so the same person shows up in every
service; a record's own person works at its own company (a company's `contacts` too: its
people, each once, with people made for a company the pool has few at). Pool entries are
picked with weights 1/(rank+1), so a few "main cast" members recur across services, which
is what makes cross-service information flow likely. Without a pool they are made on the
fly. (`anchors.py` finds the entities that given values name, so a value can be built
around them.)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from compoworld.graph.semtypes import singularize, split_words
from compoworld.world.seeds import derive_seed
from compoworld.world.words import (
    make_company,
    make_person,
    make_place,
    make_product,
    pick_weighted,
)

if TYPE_CHECKING:
    from compoworld.world.seeding import Pool

PERSON_TYPES = frozenset({"email", "phone", "first_name", "last_name", "person_name", "username"})
NAME_TYPES = frozenset({"person_name", "first_name", "last_name"})  # what says who they are
# `region` (a state or province) is no shared type: `vocab.field_kind` names it; nor are
# `industry`, `location` ("Berlin, Germany") and `tax_id`, which `namekinds.value_type`
# names.
# A region written out (`administrative_district_level_2: "California"`) is the same
# place's as its city: Square read "Maharashtra" and "Lisbon" in one address.
PLACE_TYPES = frozenset({"address", "city", "postal_code", "country", "timezone", "latitude",
                         "longitude", "language", "region", "region_name"})
PRODUCT_NOUNS = frozenset("product item sku listing offer plan good variant article book "
                        "price line_item order_item cart_item".split())
# Words that say what a field is rather than whose it is: `to_email` -> role `to`.
_TYPE_WORDS = frozenset(
    "email mail address addr name first last full given family sur surname phone number "
    "mobile telephone tel cell fax user username login handle display nick nickname city town "
    "country code zip postal post postcode zipcode lat latitude lng lon long longitude "
    "timezone time zone tz language lang locale company organization organisation org "
    "employer business url uri website web site homepage home page domain host hostname "
    "street line 1 2 iso alpha nationality currency location geo coordinates coordinate "
    "position details detail info information title subject headline description text body "
    "content message comment note notes summary bio amount price cost fee balance subtotal "
    "total unit state province region person iana sms industry sector tax vat reg taxcode "
    "vatreg gst "
    # Square's `locality` and `administrative_district_level_1`: the city and the state
    "locality administrative district level county "
    # one-word compounds (`Firstname`, `Fullname`): the record's own name, no role of theirs
    "firstname lastname fullname givenname familyname surname displayname username "
    "emailaddress phonenumber mobilenumber companyname nickname".split()
)
# Roles that are the record's own person: `contact_email` and `email` are one person.
# A `secondary_email` or `home_phone` is still theirs (another of their addresses, not
# another person's), and a `billingPerson` object is the customer themselves.
# Apps a person has a handle in: a `slack_username` is theirs, no login of another app.
HANDLE_APPS = frozenset("slack skype twitter github linkedin facebook instagram telegram "
                        "whatsapp".split())
_MAIN_ROLES = frozenset("contact customer user person primary main personal work billing "
                        "shipping mailing physical profile account member client default "
                        "my self secondary alternate alternative alt other backup additional "
                        "cardholder card holder "
                        "extra private home office business mobile notification notifications "
                        "recovery".split()) | HANDLE_APPS  # (Box's `notification_email`)
# A `name` in these objects is a person's name (semtypes only knows collection names).
PERSON_NOUNS = frozenset("sender recipient owner author assignee organizer organiser creator "
                          "reporter manager attendee participant user contact customer member "
                          "employee person from to cc bcc reviewer approver speaker driver "
                          "buyer seller requester invitee guest".split())
# Collections of an app's own people: in a team's chat, tracker or HR app, our colleagues.
_STAFF_LISTS = frozenset("user employee staff agent colleague teammate worker "
                         "team_member project_member workspace_member organization_member "
                         "org_member".split())


def is_staff_list(collection: str) -> bool:
    """Whether a collection (or a record's noun) lists an app's own people (`users`,
    `team_members`)."""
    words = [singularize(w) for w in split_words(collection)]
    return bool(words) and (words[-1] in _STAFF_LISTS or "_".join(words[-2:]) in _STAFF_LISTS)


# Words before a company's name that make it another of the record's own company's names
# (`MarketingCompanyName`, `trading_name`, `ShortName`), no other company: Avaza and LetMC
# read `"CompanyName": "Wonka Confectionery", "MarketingCompanyName": "Hooli"`.
COMPANY_FORMS = frozenset("marketing trading trade brand brands legal registered official "
                          "public display short abbreviated abbreviation alias".split())
_SITE_WORDS = frozenset("url uri website web site homepage home page company link".split())

FIELD_GETTERS: dict[str, dict[str, Callable[[Any], Any]]] = {
    "person": {
        "email": lambda p: p.email, "phone": lambda p: p.phone,
        "first_name": lambda p: p.first_name, "last_name": lambda p: p.last_name,
        "person_name": lambda p: p.name, "username": lambda p: p.username,
        "address": lambda p: p.address, "postal_code": lambda p: p.postal_code,
        "company": lambda p: p.company.name, "hostname": lambda p: p.company.domain,
        "url": lambda p: p.company.url, "city": lambda p: p.place.city,
        "country": lambda p: p.place.country, "timezone": lambda p: p.place.timezone,
        "latitude": lambda p: p.place.latitude, "longitude": lambda p: p.place.longitude,
        "language": lambda p: p.place.language, "currency": lambda p: p.place.currency,
        "region": lambda p: p.place.region, "region_name": lambda p: p.place.region_name,
        "industry": lambda p: p.company.industry,
        "location": lambda p: p.place.location, "tax_id": lambda p: p.company.tax_id,
    },
    "company": {
        "company": lambda c: c.name, "hostname": lambda c: c.domain, "url": lambda c: c.url,
        "email": lambda c: c.email, "phone": lambda c: c.phone,
        "address": lambda c: c.place.address, "postal_code": lambda c: c.place.postal_code,
        "city": lambda c: c.place.city, "country": lambda c: c.place.country,
        "timezone": lambda c: c.place.timezone, "latitude": lambda c: c.place.latitude,
        "longitude": lambda c: c.place.longitude, "language": lambda c: c.place.language,
        "currency": lambda c: c.place.currency, "region": lambda c: c.place.region,
        "region_name": lambda c: c.place.region_name, "industry": lambda c: c.industry,
        "location": lambda c: c.place.location,
        "tax_id": lambda c: c.tax_id,
    },
    "place": {
        "address": lambda p: p.address, "postal_code": lambda p: p.postal_code,
        "city": lambda p: p.city, "country": lambda p: p.country,
        "timezone": lambda p: p.timezone, "latitude": lambda p: p.latitude,
        "longitude": lambda p: p.longitude, "language": lambda p: p.language,
        "currency": lambda p: p.currency, "region": lambda p: p.region,
        "region_name": lambda p: p.region_name, "location": lambda p: p.location,
    },
    "product": {
        "title": lambda p: p.title, "money": lambda p: p.price,
        "currency": lambda p: p.currency, "text": lambda p: p.description,
    },
}
_POOL_FIELDS = {"person": "customers", "company": "companies", "place": "places",
                "product": "products", "colleague": "colleagues"}
_MAKE_ENTITY: dict[str, Callable[[random.Random], Any]] = {
    "person": make_person, "company": make_company, "place": make_place,
    "product": make_product, "colleague": make_person,
}


@dataclass(frozen=True, slots=True)
class Flags:
    """Which entities an object's own leaf fields describe (decides where values come from)."""

    person: bool = False
    company: bool = False
    place: bool = False
    product: bool = False


NO_FLAGS = Flags()


def field_role(name: str, type_name: str = "") -> str:
    """The role a field name gives its entity (`to_email` -> `to`); "" for the record's own
    (a company's name in another form, `MarketingCompanyName`, is its own company's)."""
    # (a number is a field's index, no role: `administrative_district_level_3` is the same
    # place's as `_level_2`, not another person's)
    words = [w for w in split_words(name) if w not in _TYPE_WORDS and not w.isdigit()]
    own = _MAIN_ROLES | COMPANY_FORMS if type_name == "company" else _MAIN_ROLES
    return "" if all(w in own for w in words) else "_".join(words)


# Words a product's own title or description field says beside its type word: an order's
# `product_name` or `item_title` is its product's, its `shipping_profile_name` or
# `api_account_name` names something else.
_PRODUCT_FIELD_WORDS = PRODUCT_NOUNS | frozenset(
    "name title label display short full long public description text details summary "
    "products items skus listings offers plans variants articles".split())


def _product_field(type_name: str, name: str) -> bool:
    """Whether a field of a product-describing object is its product's (`title`, `price`)."""
    if type_name not in FIELD_GETTERS["product"]:
        return False
    return type_name not in ("title", "text") or set(split_words(name)) <= _PRODUCT_FIELD_WORDS


def field_source(type_name: str, name: str, flags: Flags) -> str | None:
    """Which pool entity a field's value comes from (None: generate it freely)."""
    if flags.product and _product_field(type_name, name):
        return "product"
    if type_name in PERSON_TYPES:
        return "person"
    if type_name == "url" and not set(split_words(name)) <= _SITE_WORDS:
        return None  # `avatar_url`, `next_url`: not the owner's web site
    if type_name in PLACE_TYPES or type_name in ("company", "hostname", "url", "currency",
                                                 "industry", "location", "tax_id"):
        if flags.person:
            return "person"
        if flags.company:
            return "company"
        if type_name in PLACE_TYPES or type_name == "location" or (
                type_name == "currency" and flags.place):
            return "place"
        return "company" if type_name != "currency" else None
    return None


def _draw(rng: random.Random, pool: Pool | None, source: str, scope: dict) -> Any:
    if pool is None:
        return _MAKE_ENTITY[source](rng)
    items = getattr(pool, _POOL_FIELDS[source])
    if not items:
        return _MAKE_ENTITY[source](rng)
    taken = scope.values()
    found = pick_weighted(rng, items)
    for _ in range(4):  # another role of the same record: prefer another entity
        if found not in taken:
            break
        found = pick_weighted(rng, items)
    return found


# Roles our own staff play on a record (its `created_by`, `owner_email`, `assignee`).
_STAFF_ROLES = frozenset("created creator modified modifier updated updater owner assignee "
                         "assigned organizer organiser author agent host approver approved "
                         "reviewer handler rep".split())


def entity_for(
    rng: random.Random,
    pool: Pool | None,
    anchor: dict[str, Any] | None,
    scope: dict,
    source: str,
    role: str,
) -> Any:
    """The `source` entity that plays `role` in `scope`: the one already chosen there, else
    the anchor's (taken out of `anchor`, so only the first group uses it), else one that
    belongs with the record (its own person works at its own company, and the other way
    round), else a draw."""
    key = (source, role)
    found = scope.get(key)
    if found is None:
        found = anchor.pop(source, None) if anchor else None
        if found is None and role == "":
            found = _belonging(rng, pool, scope, source)
        if found is None:
            ours = source == "person" and bool(set(role.split("_")) & _STAFF_ROLES)
            found = _draw(rng, pool, "colleague" if ours else source, scope)
        scope[key] = found
    return found


def employer(scope: dict) -> Any:
    """The company a record's people work for: its own company, else its person's; None
    while it has neither."""
    company = scope.get(("company", ""))
    if company is None and EMPLOYER in scope:
        company = scope[EMPLOYER][0]
    if company is None and scope.get(("person", "")) is not None:
        company = scope[("person", "")].company
    return company


def staff_of(scope: dict) -> tuple[Any, list] | None:
    """What a company's child list (`contacts`) shares: the company and the people its
    items already are, so each contact is another of its people."""
    company = employer(scope)
    return (company, []) if company is not None else None


@lru_cache(maxsize=256)
def _made_staff(company: Any, count: int) -> tuple[Any, ...]:
    """People made for a company the pool has too few people at: the same ones wherever."""
    return tuple(make_person(random.Random(derive_seed("employee", company.name, index)),
                             company=company, place=company.place) for index in range(count))


def _belonging(rng: random.Random, pool: Pool | None, scope: dict, source: str) -> Any:
    """A record's own company is its person's employer; its own person (or a contact in a
    company's list) is one of the company's people: pool people who work there, then
    people made for it."""
    if source == "company":  # (in a company's list of its own websites: that company)
        return employer(scope)
    if source != "person":
        return None
    company, seen = scope.get(EMPLOYER) or (None, [])
    company = scope.get(("company", "")) or company
    if company is None:
        return None
    staff = [p for p in pool.customers if p.company == company] if pool is not None else []
    staff += _made_staff(company, max(0, STAFF - len(staff)))
    taken = [*scope.values(), *seen]
    free = [p for p in staff if p not in taken] or staff
    found = pick_weighted(rng, free)
    seen.append(found)
    return found


def staff_for(rng: random.Random, pool: Pool | None, anchor: dict[str, Any] | None,
              scope: dict) -> Any:
    """The person who acted on a record (`createdBy`, `organizer`): one per record, drawn
    from the cast but never the record's own person (its anchor or an earlier draw)."""
    key = ("person", "staff")
    found = scope.get(key)
    if found is None:
        own = anchor.get("person") if anchor else None
        found = _draw(rng, pool, "colleague", {**scope, ("own", 0): own} if own else scope)
        scope[key] = found
    return found


# Where a child's scope keeps `staff_of` its company (a company's `contacts`): what it
# shares with its siblings and passes on to its own children.
EMPLOYER = ("employer", 0)
STAFF = 5  # people a company has at least: its contact, and a list of three others


def child_scope(parent: dict, staff: tuple[Any, list] | None = None) -> dict:
    """A new object's scope: its own entities, but it avoids its parent's (another party);
    with `staff` (`staff_of` the parent), its people work at that company."""
    scope = {("taken", index): entity for index, entity in enumerate(parent.values())}
    staff = staff or parent.get(EMPLOYER)
    if staff is not None:
        scope[EMPLOYER] = staff
    return scope
