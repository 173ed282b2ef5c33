"""World seeding: one pool shared by every service, deterministic states, fast reset."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from jsonschema import Draft202012Validator

from compoworld.services.runtime import Service
from compoworld.specs.openapi import load_openapi
from compoworld.specs.records import ServiceSpec
from compoworld.world.seeding import (
    LOCAL_RECORDS,
    World,
    draw_pool,
    our_address,
    own_people,
    seed_state,
)
from compoworld.world.seeds import service_seed

REPO = Path(__file__).resolve().parents[2]


def openapi(title: str, collections: dict[str, tuple]) -> dict:
    """A small OpenAPI document: create + get-by-id per collection (`/path` -> schema)."""
    paths, schemas = {}, {}
    for path, (props, required) in collections.items():
        name = path.strip("/").title()
        ref = {"$ref": f"#/components/schemas/{name}"}
        body = {"content": {"application/json": {"schema": ref}}}
        paths[path] = {"post": {"operationId": f"create{name}", "requestBody": body,
                                "responses": {"201": {"description": "ok", **body}}}}
        paths[path + "/{id}"] = {"get": {
            "operationId": f"get{name}",
            "parameters": [{"name": "id", "in": "path", "required": True,
                            "schema": {"type": "string"}}],
            "responses": {"200": {"description": "ok", **body}}}}
        schemas[name] = {"type": "object", "required": required, "properties": props}
    return {"openapi": "3.0.3", "info": {"title": title, "version": "1"}, "paths": paths,
            "components": {"schemas": schemas}}


S = {"type": "string"}


def crm_spec() -> ServiceSpec:
    return load_openapi(openapi("CRM", {
        "/contacts": ({"id": S, "email": {"type": "string", "format": "email"}, "first_name": S,
                     "last_name": S, "phone": S, "company_id": S, "city": S},
                    ["email", "first_name", "last_name"]),
        "/companies": ({"id": S, "name": S, "domain": S, "website": S}, ["name"]),
        "/deals": ({"id": {"type": "integer"}, "title": S, "amount": {"type": "integer"},
                  "currency": S, "contact_id": {"type": "integer"},
                  "stage": {"type": "string", "enum": ["lead", "won", "lost"]},
                  "closes_on": {"type": "string", "format": "date"}},
                 ["title", "amount", "stage", "contact_id"]),
    }), "crm.json")


def mail_spec() -> ServiceSpec:
    return load_openapi(openapi("Mail", {
        "/messages": ({"id": S, "to_email": {"type": "string", "format": "email"},
                     "sender_name": S, "subject": S, "body": S,
                     "sent_at": {"type": "string", "format": "date-time"}},
                    ["to_email", "sender_name", "subject"]),
    }), "mail.json")


def shop_spec() -> ServiceSpec:
    return load_openapi(openapi("Shop", {
        "/products": ({"sku": {"type": "string", "format": "uuid"}, "title": S,
                     "price": {"type": "number"}, "currency": S}, ["title", "price"]),
        "/orders": ({"id": S, "product_id": S, "customer_email": S, "quantity":
                   {"type": "integer", "minimum": 1, "maximum": 5},
                   "shipping_address": {"type": "object", "required": ["city"],
                                        "properties": {"street": S, "city": S, "zip": S}}},
                  ["product_id", "customer_email", "quantity", "shipping_address"]),
    }), "shop.json")


def test_the_pool_is_a_cast_of_distinct_consistent_people():
    pool = draw_pool(11)
    assert (len(pool.people), len(pool.companies), len(pool.places), len(pool.products)) == (
        20, 8, 10, 10)
    assert len({p.email for p in pool.people}) == 20
    for person in pool.people:
        assert person.name == f"{person.first_name} {person.last_name}"
        assert person.email == f"{person.first_name}.{person.last_name}@{person.company.domain}"\
            .lower()
        assert person.place in pool.places
    # customers work at the pool's companies; our colleagues at our own, which we email from
    assert all(p.company in pool.companies for p in pool.customers)
    assert {p.company for p in pool.colleagues} == {pool.us} and pool.us not in pool.companies
    assert our_address(11) == f"hello@{pool.us.domain}"
    assert all(c.url == f"https://www.{c.domain}" for c in pool.companies)
    assert draw_pool(11) == pool and draw_pool(12) != pool
    assert len(pool.locals) == 30  # the last names the shared cast left
    assert len({p.email for p in pool.everyone}) == 50
    assert draw_pool(11, locals=0).people == pool.people  # the shared cast is drawn first


def test_every_seeded_record_is_valid_and_has_its_id():
    spec = crm_spec()
    state = seed_state(spec, 3, draw_pool(3))
    for collection, schema in spec.resources.items():
        records = state.collections[collection]
        assert len(records) == 5
        validator = Draft202012Validator(schema,
                                         format_checker=Draft202012Validator.FORMAT_CHECKER)
        id_field = schema["x-id-field"]
        for key, record in records.items():
            validator.validate(record)
            assert str(record[id_field]) == key
    assert sorted(state.collections["contacts"]) == [f"con_{n:04d}" for n in range(1, 6)]
    assert sorted(state.collections["deals"]) == [str(n) for n in range(1, 6)]  # integer ids
    assert state.next_ids == {"contacts": 5, "companies": 5, "deals": 5}


def test_records_take_whole_people_and_foreign_ids_exist():
    pool = draw_pool(5)
    people = {p.email: p for p in pool.everyone}
    state = seed_state(crm_spec(), 5, pool)
    contacts = state.collections["contacts"]
    assert len({c["email"] for c in contacts.values()}) == 5  # distinct people
    for contact in contacts.values():
        person = people[contact["email"]]
        assert (contact["first_name"], contact["last_name"]) == (person.first_name,
                                                                 person.last_name)
        assert contact.get("city", person.place.city) == person.place.city
        assert contact.get("company_id", "com_0001") in state.collections["companies"]
    for deal in state.collections["deals"].values():
        assert f"con_{deal['contact_id']:04d}" in contacts
    companies = {c.name for c in pool.companies}
    assert {c["name"] for c in state.collections["companies"].values()} <= companies


def test_products_and_nested_addresses_come_from_the_pool():
    pool = draw_pool(2)
    state = seed_state(shop_spec(), 2, pool)
    titles = {p.title: p for p in pool.products}
    for product in state.collections["products"].values():
        assert product["price"] == titles[product["title"]].price
    people = {p.email: p for p in pool.everyone}
    for order in state.collections["orders"].values():
        assert order["product_id"] in state.collections["products"]
        person = people[order["customer_email"]]
        assert order["shipping_address"]["city"] == person.place.city


def test_services_seeded_with_one_seed_share_people():
    crm, mail = crm_spec(), mail_spec()
    shared = 0
    for seed in range(30):
        pool = draw_pool(seed)
        crm_emails = {r["email"] for r in seed_state(crm, seed, pool).collections["contacts"]
                      .values()}
        mail_emails = {r["to_email"] for r in seed_state(mail, seed, pool)
                       .collections["messages"].values()}
        assert mail_emails <= {p.email for p in pool.everyone}
        shared += bool(crm_emails & mail_emails)
    # the pool's rank weights make a few people recur: most worlds link the two (82% of
    # 200; 21 of these 30)
    assert shared >= 20  # (3 of each list are the shared cast, 2 the service's own)


def test_each_service_also_knows_people_the_others_do_not():
    # a lead of one app copied into another must be somebody new there (else 94 of
    # 105 lead -> contact tasks added a customer the target app already had)
    crm, mail = crm_spec(), mail_spec()
    absent = 0
    for seed in range(30):
        pool = draw_pool(seed)
        contacts = list(seed_state(crm, seed, pool).collections["contacts"].values())
        mail_emails = {r["to_email"] for r in seed_state(mail, seed, pool)
                       .collections["messages"].values()}
        own = {p.email for p in own_people(pool, crm.name)}
        assert own and own <= {p.email for p in pool.locals}
        assert sum(c["email"] in own for c in contacts) == LOCAL_RECORDS
        absent += any(c["email"] not in mail_emails for c in contacts)
    assert absent == 30


def test_seeding_is_deterministic_and_independent_of_other_services():
    crm = crm_spec()
    digest = seed_state(crm, 9, draw_pool(9)).digest()
    seed_state(mail_spec(), 9, draw_pool(9))  # seeding another service changes nothing
    assert seed_state(crm, 9, draw_pool(9)).digest() == digest
    assert seed_state(crm, 9).digest() == digest  # the pool defaults to the seed's pool
    assert seed_state(crm, 10, draw_pool(10)).digest() != digest
    assert service_seed(9, "crm") != service_seed(9, "mail")


def test_records_per_collection_can_exceed_the_pool():
    state = seed_state(mail_spec(), 1, draw_pool(1), records_per_collection=30)
    assert len(state.collections["messages"]) == 30


def world_of(seed: int) -> World:
    specs = [crm_spec(), mail_spec(), shop_spec()]
    return World.seeded(seed, {spec.name: Service(spec, {}) for spec in specs})


def test_reset_restores_the_start_digest_after_changes():
    world = world_of(4)
    start = world.digest()
    crm = world.services["crm_json"]
    crm.state.delete("contacts", "con_0001")
    record = dict(crm.state.get("companies", "com_0002"), name="Renamed Ltd")
    crm.state.put("companies", record)
    world.services["mail_json"].state.put("messages", {
        "id": "x", "to_email": "a@b.co", "sender_name": "A B", "subject": "Hi"})
    assert world.digest() != start
    world.reset()
    assert world.digest() == start
    crm = world.services["crm_json"]
    crm.state.delete("contacts", "con_0002")  # the stored start state is never touched
    world.reset()
    assert world.digest() == start
    assert world_of(4).digest() == start and world_of(5).digest() != start


def test_snapshot_and_restore():
    world = world_of(6)
    world.services["crm_json"].state.delete("contacts", "con_0003")
    middle = world.digest()
    snapshot = world.snapshot()
    world.services["crm_json"].state.delete("contacts", "con_0004")
    world.restore(snapshot)
    assert world.digest() == middle
    world.reset()
    assert "con_0003" in world.services["crm_json"].state.collections["contacts"]


def test_reset_is_fast():
    # three services, six collections, 30 records: the target is well under 1 ms
    world = world_of(1)
    times = []
    for _ in range(50):
        started = time.perf_counter()
        world.reset()
        times.append(time.perf_counter() - started)
    assert statistics.median(times) < 0.002  # lenient bound for busy machines


def test_digests_do_not_depend_on_the_process_hash_seed():
    code = (
        "from tests.world.test_seeding import crm_spec, mail_spec\n"
        "from compoworld.world.seeding import draw_pool, seed_state\n"
        "print(seed_state(crm_spec(), 3, draw_pool(3)).digest(),"
        " seed_state(mail_spec(), 3, draw_pool(3)).digest())\n"
    )
    outputs = {
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                       cwd=REPO, env={**os.environ, "PYTHONHASHSEED": str(hash_seed)}
                       ).stdout
        for hash_seed in (1, 2, 3)
    }
    assert len(outputs) == 1 and len(outputs.pop().split()) == 2
    # (fresh processes each: one full-suite run found this process's digest of the CRM
    # spec different after the suite's other tests, which no smaller run repeats)


def test_a_list_of_companies_names_each_company_once():
    """A company record whose person is drawn before its name takes the person's employer:
    each record's person works at the record's company, so no two companies of one list
    share a name (Avaza listed "Aperture Science" twice, and a request could name neither)."""
    spec = load_openapi(openapi("Books", {
        "/companies": ({"id": S, "contact_email": {"type": "string", "format": "email"},
                        "contact_name": S, "company_name": S, "phone": S},
                       ["contact_email", "contact_name", "company_name"]),
    }), "books.json")
    for seed in range(8):
        pool = draw_pool(seed)
        state = seed_state(spec, seed, pool)
        records = list(state.collections["companies"].values())
        names = [r["company_name"] for r in records]
        assert len(set(names)) == len(names) == 5, names
        by_email = {p.email: p for p in pool.everyone}
        for record in records:  # (and the contact works there)
            assert by_email[record["contact_email"]].company.name == record["company_name"]


def test_our_first_account_at_a_service_is_one_in_use():
    # a tenant record (the user's own account) drawn closed in every slot left a texting
    # task only the account's id to name it by ("the "AC01fd17..." account")
    status = {"type": "string", "enum": ["closed", "suspended", "active"]}
    spec = load_openapi(openapi("Texts", {
        "/accounts": ({"sid": S, "friendly_name": S, "status": status}, ["friendly_name"]),
        "/notes": ({"id": S, "title": S, "status": status}, ["title"]),
    }), "texts.json")
    live = 0
    for seed in range(12):
        state = seed_state(spec, seed, draw_pool(seed))
        accounts = list(state.collections["accounts"].values())
        names = [a["friendly_name"] for a in accounts]
        first = next(a for a, name in zip(accounts, names, strict=True)
                     if names.count(name) == 1)  # (a name two accounts share names neither)
        assert first["status"] == "active"
        live += sum(n.get("status") == "active" for n in state.collections["notes"].values())
    assert live < 12 * 5  # (other records keep their drawn statuses)


def test_our_colleagues_act_on_records_and_are_nobody_s_customer():
    # not a customer texted in one app as the `createdBy` of records in another
    email = {"type": "string", "format": "email"}
    spec = load_openapi(openapi("Desk", {
        "/tickets": ({"id": S, "email": email, "name": S, "createdBy": email}, ["email"]),
    }), "desk.json")
    for seed in range(6):
        pool = draw_pool(seed)
        ours = {p.email for p in pool.colleagues}
        assert len(ours) == 4 and not ours & {p.email for p in pool.customers}
        tickets = seed_state(spec, seed, pool).collections["tickets"].values()
        makers = {t["createdBy"] for t in tickets if "createdBy" in t}
        assert makers and makers <= ours, (makers, ours)
        assert not {t["email"] for t in tickets} & ours


def test_our_company_is_one_that_sells_bills_and_books_calls():
    """Our business takes bulk orders, gives demos, bills clients and books calls: a trading
    or products company, never a law firm taking bulk orders ("Keystone Legal"), a bakery
    holding account reviews ("Quarry Lane Bakery") or a food company billing consulting."""
    from compoworld.world.seeding import OUR_TRADES, _our_name

    for seed in range(30):
        ours = _our_name(seed, ())
        assert ours in OUR_TRADES, ours
        assert ours not in ("Keystone Legal", "Quarry Lane Bakery", "Copperleaf Foods")
