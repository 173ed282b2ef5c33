"""World seeding: one seed gives a pool of people, companies, places and products, and
from it the start state of every service; `World` holds the services and resets them.

The pool is drawn first (`draw_pool`) and shared by all services, so the CRM contact, the
mail recipient and the calendar attendee can be the same person (DESIGN.md, "Shared
interfaces and the world"). Records pick pool entries with rank weights 1/(rank+1)
(`values.pick_weighted`), so a few people recur across services.

Each service is seeded from `sha256(seed, service name)` alone, so adding or removing a
service never changes another one's records, and the same (spec, seed) always gives the
same state digest.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

from compoworld.graph.semtypes import (
    FALLBACK_TYPES,
    entity_id_type,
    is_entity_id,
    is_tenant_id,
    json_type,
    semantic_type,
)
from compoworld.specs.categories import keeps_staff
from compoworld.specs.records import ServiceSpec
from compoworld.world.banking import agree_with_country
from compoworld.world.fieldsources import is_staff_list
from compoworld.world.leafplans import Check
from compoworld.world.links import convert_id, link_children, parent_links
from compoworld.world.schemavalues import compile_schema, value_from_schema
from compoworld.world.seeds import derive_seed, service_seed
from compoworld.world.selfpaths import own_paths, path_rule
from compoworld.world.state import State, Unprocessable, canonical_json
from compoworld.world.values import conform
from compoworld.world.vocab import field_kind
from compoworld.world.words import (
    CITIES,
    COMPANY_NAMES,
    FIRST_NAMES,
    LAST_NAMES,
    PRODUCTS,
    Company,
    Person,
    Place,
    Product,
    make_company,
    make_person,
    make_place,
    make_product,
    sample_weighted,
)

ATTEMPTS = 3  # draws per record before it is left out (a schema the generator cannot meet)


@dataclass(frozen=True, slots=True)
class Pool:
    """The world's cast, drawn once from the world seed and reused by every service."""

    seed: int
    people: tuple[Person, ...]
    companies: tuple[Company, ...]
    places: tuple[Place, ...]
    products: tuple[Product, ...]
    # people only a few services know (`own_people`): a lead of one app who is nobody in
    # the next, so copying them there adds somebody new
    locals: tuple[Person, ...] = ()
    # our own business: the company our `colleagues` work at and we email from
    us: Company | None = None

    @property
    def everyone(self) -> tuple[Person, ...]:
        return self.people + self.locals

    @property
    def colleagues(self) -> tuple[Person, ...]:
        """Our own staff, the people who act on records (`createdBy`, `organizer`): the
        last `COLLEAGUES` of the shared cast, never a record's customer or contact (not a
        customer texted in one app as the `createdBy` of records in another)."""
        return self.people[-COLLEAGUES:] if len(self.people) > 2 * COLLEAGUES else self.people

    @property
    def customers(self) -> tuple[Person, ...]:
        """The shared cast records are about: all but our `colleagues`."""
        return self.people[:-COLLEAGUES] if len(self.people) > 2 * COLLEAGUES else self.people


COLLEAGUES = 4


@lru_cache(maxsize=256)
def our_address(seed: int) -> str:
    """The email address the business of world `seed` writes to its customers from
    (`hello@<our domain>`): at a company of its own, none of the pool's, so no customer's
    company is the sender's."""
    return f"hello@{draw_pool(seed).us.domain}"


@lru_cache(maxsize=512)
def our_sender_name(seed: int, text: bool = False) -> str:
    """The name the business of world `seed` sends its messages under where an API takes a
    name: its company's name on an email ("Willow Finch"), and on a text an SMS sender ID
    (letters and digits, at most 11): as many of its words run together as fit
    ("WillowFinch", "Cobalt" of Cobalt Systems, never a cut "CobaltSyste")."""
    name = draw_pool(seed).us.name
    if not text:
        return name
    words = re.findall(r"[A-Za-z0-9]+", name) or ["Us"]
    fitting = words[0][:11]
    for word in words[1:]:
        if len(fitting) + len(word) > 11:
            break
        fitting += word
    return fitting


def _our_name(seed: int, theirs: tuple[Company, ...]) -> str:
    """Our own company's name: none of the pool's companies, so no customer's company is
    ours; one whose trade sells products, bills and books calls (`OUR_TRADES`) where the
    pool leaves one."""
    names = {company.name for company in theirs}
    free = [name for name in COMPANY_NAMES if name not in names]
    return random.Random(derive_seed("us", seed)).choice(
        [name for name in free if name in OUR_TRADES] or free)


# Our business takes bulk orders, gives product demos, bills clients and books calls with
# them: a trading, supply or products company (a law firm that took bulk
# orders, a bakery that held account reviews, a food company that billed consulting read
# as made up).
OUR_TRADES = frozenset({"Harborview Trading", "Oakridge Supply", "Willow & Finch",
                        "Maplewood Interiors", "Summit Outdoor", "Cobalt Systems",
                        "Redwood Robotics"})


def our_page(seed: int, path: str) -> str:
    """A page of our own website (`https://www.contoso.com/book`): where customers book or
    pay online, at the domain we email from (`our_address`)."""
    return f"https://www.{our_address(seed).partition('@')[2]}/{path}"


OWN_PEOPLE = 6  # the locals a service may cast
LOCAL_RECORDS = 2  # of each collection's records, those about the service's own locals


def own_people(pool: Pool, service: str) -> list[Person]:
    """The pool's locals `service` knows: `OWN_PEOPLE` of them, drawn from the world seed
    and the service name alone (any two services share few)."""
    rng = random.Random(derive_seed("locals", pool.seed, service))
    return rng.sample(pool.locals, min(OWN_PEOPLE, len(pool.locals)))


def draw_pool(
    seed: int, *, people: int = 20, companies: int = 8, places: int = 10, products: int = 10,
    locals: int = 30,
) -> Pool:
    """The pool of a world: distinct people (each with a pool company and place, an email
    at the company's domain; the last `COLLEAGUES` are our own staff, at our company `us`
    and its domain), companies with head offices in pool places, places, products, and
    `locals` more people (as many as last names are left) whom only a few services know.
    """
    rng = random.Random(derive_seed("pool", seed))
    place_list = tuple(make_place(rng, row) for row in rng.sample(CITIES, places))
    company_list = tuple(
        make_company(rng, name, rng.choice(place_list))
        for name in rng.sample(COMPANY_NAMES, companies)
    )
    firsts = rng.sample(FIRST_NAMES, people)
    lasts = rng.sample(LAST_NAMES, people)  # distinct last names: distinct emails
    us = make_company(rng, _our_name(seed, company_list), rng.choice(place_list))
    staff_from = people - COLLEAGUES if people > 2 * COLLEAGUES else people
    # (a colleague works for us: one who created a record in one app must not write from
    # a customer's company)
    # (each company has one of the customers at least, so a list of companies can give
    # every company a person who works there)
    person_list = [_person(rng, first, last, company_list, place_list,
                           company_list[index] if index < len(company_list) else None)
                   if index < staff_from else make_person(rng, first, last, us, us.place)
                   for index, (first, last) in enumerate(zip(firsts, lasts, strict=True))]
    product_list = tuple(make_product(rng, row) for row in rng.sample(PRODUCTS, products))
    # (drawn last: the shared cast, companies, places and products are those of a pool
    # without locals)
    left = [name for name in LAST_NAMES if name not in lasts]
    local_list = tuple(
        _person(rng, first, last, company_list, place_list)
        for first, last in zip(rng.sample(FIRST_NAMES, min(locals, len(left))),
                               rng.sample(left, min(locals, len(left))), strict=True))
    return Pool(seed, tuple(person_list), company_list, place_list, product_list, local_list,
                us)


def _person(rng: random.Random, first: str, last: str, companies: tuple[Company, ...],
            places: tuple[Place, ...], company: Company | None = None) -> Person:
    company = company or rng.choice(companies)
    # most people live where their company is
    place = company.place if rng.random() < 0.6 else rng.choice(places)
    return make_person(rng, first, last, company, place)


def seed_state(
    spec: ServiceSpec, seed: int, pool: Pool | None = None, records_per_collection: int = 5
) -> State:
    """A start state for `spec`: `records_per_collection` valid records per collection.

    Ids are allocated first for every collection (`State.new_id` strings, or their numbers
    when the id field is an integer; drawn from the schema when it has a format, pattern
    or enum; the record's own value when the id field names a real thing, such as a `zip`
    that then agrees with the record's city), so a record's foreign ids (`company_id`)
    name records that exist. Fields of the record's own id type (`contactId` next to `id`)
    repeat its id. Within a collection
    the records' main people (and companies, places, products) are distinct pool entries.
    A record the generator cannot make valid in `ATTEMPTS` draws is left out.
    """
    pool = pool if pool is not None else draw_pool(seed)
    rng = random.Random(service_seed(seed, spec.name))
    state = State(dict(spec.resources))
    count = records_per_collection
    ids: dict[str, list[Any]] = {}
    plans = {c: compile_schema(_named(s) if is_tenant_id(entity_id_type(spec.name, c)) else s,
                               service=spec.name, resource=c)
             for c, s in spec.resources.items()}
    paths = own_paths(spec)
    anchors: dict[str, list[dict[str, Any]]] = {}
    shapes = _param_shapes(spec)
    own = own_people(pool, spec.name)
    ours = keeps_staff(spec.domain, spec.title)
    for collection, schema in spec.resources.items():
        companies, people = _our_staff(pool, count, spec.name) \
            if ours and is_staff_list(collection) else _cast(rng, pool, own, count)
        casts = {
            "person": people,
            "company": companies,
            "place": sample_weighted(rng, pool.places, count),
            "product": sample_weighted(rng, pool.products, count),
        }
        anchors[collection] = [{kind: cast[index] for kind, cast in casts.items() if cast}
                               for index in range(count)]
        id_field = state.id_field(collection)
        id_schema = _properties(schema).get(id_field, {})
        id_schema = id_schema if isinstance(id_schema, dict) else {}
        own_type = entity_id_type(spec.name, collection)
        # a plain string id the tools' parameters shape (`VersionNumber: integer`, a
        # pattern): drawn in that shape, or every call with a stored id would be a 400
        shape = shapes.get(own_type) if json_type(id_schema) == "string" and not any(
            key in id_schema for key in _SHAPED) else None
        meaningful = shape is None and _meaningful_id(id_field, id_schema, spec.name)
        values: list[Any] = []
        for index in range(count):
            text = state.new_id(collection)
            value = None
            if shape is not None:
                value = _shaped_id(shape, state.next_ids[collection], rng, values)
            elif meaningful:  # a `zip` or `code` id: the record's own value, from its anchor
                value = plans[collection](rng, pool=pool,
                                          anchor=dict(anchors[collection][index])).get(id_field)
            if value is None or value in values or isinstance(value, dict | list):
                value = _id_value(text, state.next_ids[collection], id_schema, rng, values)
            values.append(value)
        ids[own_type] = values
    for collection, schema in spec.resources.items():
        id_field = state.id_field(collection)
        own_type = entity_id_type(spec.name, collection)
        props = _properties(schema)
        twins = [
            key for key, sub in props.items()
            if key != id_field and isinstance(sub, dict)
            and semantic_type(key, sub, service=spec.name, resource=collection) == own_type
        ]
        ours = is_tenant_id(own_type)
        links = parent_links(props, id_field, own_type, spec.name)
        required = frozenset(r for r in schema.get("required") or () if isinstance(r, str))
        # its `uri` its own API path (`/2010-04-01/Accounts/AC...json`), no web site
        own_path = path_rule(paths.get(collection), props, required, id_field,
                             {key: Check(sub) for key, sub in props.items()})
        for index, record_id in enumerate(ids[own_type]):
            for _ in range(ATTEMPTS):
                # (a copy: a draw takes its entities out of the anchor, so a retry, or the
                # id's draw before it, would otherwise find it spent and draw at random)
                record = plans[collection](rng, pool=pool, ids=ids,
                                           anchor=dict(anchors[collection][index]))
                # (an id the draw left out goes first, not last: an account whose `sid`
                # came after its long `subresource_uris` read as one without a sid)
                record = {id_field: record_id, **record} if id_field not in record else {
                    **record, id_field: record_id}
                for key in twins:
                    if key in record:
                        record[key] = convert_id(record_id, props[key])
                link_children(record, id_field, links)  # its contacts' `CompanyIDFK`
                if own_path is not None:
                    own_path(record)
                # no "North America" for a Tokyo customer, no ABN for a Mexican firm
                agree_with_country(record, required)
                try:
                    state.put(collection, record)
                    break
                except Unprocessable:
                    continue
        if ours:
            _in_use(state.collections[collection].values(), props)
    return state


# The statuses of an account in use, and the fields that name an account.
IN_USE = ("active", "enabled", "open", "live")
ACCOUNT_NAMES = ("friendly_name", "name", "display_name", "title")


def _in_use(records: Iterable[dict[str, Any]], props: dict[str, Any]) -> None:
    """Our first named account at a service (a tenant record: Twilio's accounts) is one
    we use: a world whose named accounts were all closed or suspended left a texting task
    only the account's id to name it by ("the "AC01fd17..." account", as no person says
    it)."""
    schema = props.get("status")
    values = schema.get("enum") if isinstance(schema, dict) else None
    live = [v for v in values if isinstance(v, str) and v.lower() in IN_USE] \
        if isinstance(values, list) else []
    records = list(records)
    names = [next((r[k] for k in ACCOUNT_NAMES if isinstance(r.get(k), str) and r[k].strip()),
                  None) for r in records]
    named = [r for r, name in zip(records, names, strict=True)
             if name is not None and names.count(name) == 1]  # (two "Weekly Account"s name
    if live and named:  # neither: compose l recited 16 ids of 208 once every account had one)
        named[0]["status"] = live[0]


def _named(schema: dict[str, Any]) -> dict[str, Any]:
    """An account's schema with its name (`friendly_name`) required: each of our accounts
    has the name we know it by, where its schema has one (a Twilio account list read
    accounts without one)."""
    props = _properties(schema)
    name = next((key for key in ACCOUNT_NAMES if isinstance(props.get(key), dict)), None)
    required = [r for r in schema.get("required") or () if isinstance(r, str)]
    if name is None or name in required:
        return schema
    return {**schema, "required": [*required, name]}


def _cast(rng: random.Random, pool: Pool, own: list[Person], count: int
          ) -> tuple[list[Company], list[Person]]:
    """A collection's companies and people: the last `LOCAL_RECORDS` records (of more than
    one) about the service's own locals, at companies of their own, the others about the
    shared cast (rank-weighted, so a few recur everywhere) at the other companies."""
    mine: list[Person] = []
    for person in rng.sample(own, len(own)) if count > 1 else []:
        if len(mine) < LOCAL_RECORDS and person.company not in {p.company for p in mine}:
            mine.append(person)
    theirs = {p.company for p in mine}
    rest = count - len(mine)
    companies = sample_weighted(rng, [c for c in pool.companies if c not in theirs], rest)
    cast = [p for p in pool.customers if p.company not in theirs] or list(pool.customers)
    people = _working_at(companies, sample_weighted(rng, cast, rest), cast)
    return companies + [p.company for p in mine], people + mine


def _our_staff(pool: Pool, count: int, service: str = "") -> tuple[list[Company], list[Person]]:
    """The people of an app where a business keeps its own (a team chat's users, an HR
    app's employees): our colleagues, then (the last `LOCAL_RECORDS` of more than two)
    people of ours only this app knows yet, all at our company and its domain. A new
    colleague "keiko.mensah@copperleaf-foods.com" from a customer's company was welcomed to
    the team; and with the same staff in every app, every colleague was known everywhere,
    so no one was new to set up in another tool (onboarding made no task)."""
    if pool.us is None:
        return [], []
    newcomers = LOCAL_RECORDS if count > 2 else 0
    people = list(pool.colleagues)[:count - newcomers]
    # (a joiner is nobody else of the cast, and shares no last name with a colleague: an
    # email at our domain names one person)
    taken = {p.name for p in pool.everyone} | {p.last_name for p in pool.colleagues}
    for index in range(count - len(people)):
        rng = random.Random(derive_seed("our-staff", pool.seed, service, index))
        person = make_person(rng, company=pool.us, place=pool.us.place)
        while person.name in taken or person.last_name in taken:
            person = make_person(rng, company=pool.us, place=pool.us.place)
        taken |= {person.name, person.last_name}
        people.append(person)
    return [pool.us] * len(people), people


def _working_at(companies: list[Company], people: list[Person], cast: list[Person]
                ) -> list[Person]:
    """The records' people, each one who works at the record's company where the pool has
    one not cast yet: a company record's name comes from its person's employer once a
    person field is drawn first, so a person cast apart from the company made two records
    of one list the same company (Avaza's companies "Aperture Science" twice)."""
    out: list[Person] = []
    for company, person in zip(companies, people, strict=False):
        if person.company == company and person not in out:
            out.append(person)
            continue
        staff = [p for p in cast if p.company == company and p not in out]
        free = staff or ([person] if person not in out else [
            p for p in cast if p not in out])
        out.append(free[0] if free else person)
    return out + people[len(out):]


def _meaningful_id(name: str, schema: Any, service: str) -> bool:
    """Whether an id field names a real thing (`zip`, `email`, `code`) rather than being
    an opaque id: then its values are drawn like the field's, not `con_0001`."""
    schema = schema if isinstance(schema, dict) else {}
    kind = semantic_type(name, schema, service=service, resource=None)
    if is_entity_id(kind) or any(key in schema for key in ("format", "pattern", "enum")):
        return False
    return kind not in FALLBACK_TYPES or field_kind(name, schema) not in (None, "fallback")


_SHAPED = ("format", "pattern", "enum")


def _param_shapes(spec: ServiceSpec) -> dict[str, dict[str, Any]]:
    """Entity id type -> the first tool parameter schema of that type that constrains it
    (integer, format or pattern), unless a parameter of the type that addresses a record
    (not a create's body) takes any string."""
    shapes: dict[str, dict[str, Any]] = {}
    loose: set[str] = set()
    for tool in spec.tools:
        props = _properties(tool.parameters)
        for param, kind in tool.param_types.items():
            sub = props.get(param)
            if not is_entity_id(kind) or not isinstance(sub, dict):
                continue
            if json_type(sub) == "integer" or any(key in sub for key in ("format", "pattern")):
                shapes.setdefault(kind, sub)
            elif json_type(sub) == "string" and tool.effect != "create":
                loose.add(kind)  # a create's body carries the record's own id field as is
    return {kind: sub for kind, sub in shapes.items() if kind not in loose}


def _shaped_id(shape: dict[str, Any], number: int, rng: random.Random,
               taken: list[Any]) -> str | None:
    """A string id in a parameter's shape: its number for integer parameters (`"3"`, which
    the arguments turn back into 3), else a draw that meets its format or pattern."""
    if json_type(shape) == "integer":
        return str(conform(number, "integer", shape, rng))
    for _ in range(5):
        value = value_from_schema(shape, rng)
        if isinstance(value, str) and value not in taken:
            return value
    return None


def _properties(schema: dict[str, Any]) -> dict[str, Any]:
    props = schema.get("properties") if isinstance(schema, dict) else None
    return props if isinstance(props, dict) else {}


def _id_value(text: str, number: int, schema: Any, rng: random.Random, taken: list[Any]) -> Any:
    schema = schema if isinstance(schema, dict) else {}
    if any(key in schema for key in ("format", "pattern", "enum")):
        for _ in range(5):  # e.g. uuid ids: draw one, distinct from the others
            value = value_from_schema(schema, rng)
            if value not in taken:
                return value
        return value
    if json_type(schema) in ("integer", "number"):
        return conform(number, "integer", schema, rng)
    return conform(text, "string", schema, rng)


class Stateful(Protocol):
    """What a world holds per service: a spec and a state it may rebind (a `Service`)."""

    spec: ServiceSpec
    state: State


class World:
    """Services over one seeded pool, with fast snapshots and reset to the start state.

    The start states are copied when the world is made; `reset` gives every service a
    fresh copy of its start state (`State.copy`), so an episode never touches the stored
    start. `reset` and `restore` rebind `service.state`: hold the `Service`, not its state.
    """

    def __init__(self, seed: int, services: dict[str, Stateful], pool: Pool | None = None):
        self.seed = seed
        self.services = services
        self.pool = pool if pool is not None else draw_pool(seed)
        self._start = {name: service.state.copy() for name, service in services.items()}

    @classmethod
    def seeded(
        cls, seed: int, services: dict[str, Stateful], records_per_collection: int = 5
    ) -> World:
        """Seed every service's state from `seed` (one shared pool), then hold them."""
        pool = draw_pool(seed)
        for service in services.values():
            service.state = seed_state(service.spec, seed, pool, records_per_collection)
        return cls(seed, services, pool)

    def snapshot(self) -> dict[str, State]:
        """Independent copies of the current states, by service name."""
        return {name: service.state.copy() for name, service in self.services.items()}

    def restore(self, snapshot: dict[str, State]) -> None:
        """Give each service a copy of its state in `snapshot` (the snapshot stays intact)."""
        for name, state in snapshot.items():
            self.services[name].state = state.copy()

    def reset(self) -> None:
        """Put every service back in its start state."""
        self.restore(self._start)

    def start_state(self, service: str) -> State:
        """The stored start state of one service (read-only: copy before changing it)."""
        return self._start[service]

    def digest(self) -> str:
        """SHA-256 over every service's state digest: equal worlds have equal digests."""
        digests = {name: service.state.digest() for name, service in self.services.items()}
        return hashlib.sha256(canonical_json(digests)).hexdigest()
