"""One cast for every service: the built-in services and the corpus services draw their
people from the same `world.seeding.draw_pool`, so a CRM contact can be the recipient of a
corpus mail service's message, and one `now` dates them all."""

from __future__ import annotations

from compoworld.services.builtin import example_state
from compoworld.services.synthesize import build_service
from compoworld.specs.openapi import load_openapi
from compoworld.world.clock import NOW_TEXT
from compoworld.world.seeding import draw_pool

CUSTOMER = {"type": "object", "properties": {
    "id": {"type": "string"}, "email": {"type": "string", "format": "email"},
    "first_name": {"type": "string"}, "last_name": {"type": "string"}}}
DOCUMENT = {
    "openapi": "3.0.0", "info": {"title": "Shop", "version": "1"},
    "paths": {
        "/customers": {"get": {"operationId": "listCustomers", "responses": {"200": {
            "description": "ok", "content": {"application/json": {"schema": {
                "type": "array", "items": CUSTOMER}}}}}}},
        "/customers/{id}": {"get": {
            "operationId": "getCustomer",
            "parameters": [{"name": "id", "in": "path", "required": True,
                            "schema": {"type": "string"}}],
            "responses": {"200": {"description": "ok", "content": {
                "application/json": {"schema": CUSTOMER}}}}}},
    },
}


def test_builtin_and_corpus_services_share_one_cast():
    seed = 11
    pool = draw_pool(seed)
    cast = {p.email: p for p in pool.everyone}
    contacts = example_state("crm", seed).records("contacts").values()
    crm = {c["email"] for c in contacts}
    # every built-in contact is one of the world's shared people
    assert crm and crm <= {p.email for p in pool.people}
    for contact in contacts:
        person = cast[contact["email"]]
        assert (contact["first_name"], contact["last_name"]) == (person.first_name,
                                                                 person.last_name)
    shop, _reasons, _model = build_service(load_openapi(DOCUMENT, "shop.example/openapi"),
                                           seed)
    customers = {c["email"] for c in shop.state.records("customers").values() if "email" in c}
    assert customers and customers <= set(cast)  # the shared cast or the shop's own locals
    assert customers - {p.email for p in pool.people}
    assert crm & customers  # the same person is a CRM contact and a shop customer


def test_builtin_services_and_episodes_share_the_worlds_now():
    from compoworld.rollout.episode import NOW
    from compoworld.services.builtin.common import DEFAULT_WORLD

    assert DEFAULT_WORLD["now"] == NOW == NOW_TEXT
    assert example_state("email", 3).records("world")["world"]["now"] == NOW_TEXT


def _team_app(category: str, collection: str = "users") -> dict:
    """A one-collection API of `collection` (people), filed under corpus `category`."""
    user = {"type": "object", "properties": {
        "id": {"type": "string"}, "email": {"type": "string", "format": "email"},
        "name": {"type": "string"}}}
    return {
        "openapi": "3.0.0", "info": {"title": "Team", "version": "1",
                                     "x-apisguru-categories": [category]},
        "paths": {f"/{collection}": {"get": {"operationId": "list", "responses": {"200": {
            "description": "ok", "content": {"application/json": {"schema": {
                "type": "array", "items": user}}}}}}}},
    }


def test_a_team_app_s_users_are_our_colleagues_at_our_domain():
    """A new colleague "keiko.mensah@copperleaf-foods.com", at a customer's company, was
    welcomed to the team from a team app's users: the people of an app where a business
    keeps its own (chat, tracker, HR) are ours, at our domain; a shop's users are not."""
    from compoworld.world.seeding import seed_state

    seed = 5
    ours = draw_pool(seed).us.domain
    team = load_openapi(_team_app("collaboration"), "team.example/openapi")
    assert team.domain == "collaboration"
    users = [u["email"] for u in seed_state(team, seed).records("users").values()
             if "email" in u]
    assert users and all(email.endswith("@" + ours) for email in users), users
    shop = load_openapi(_team_app("ecommerce"), "shop.example/openapi")
    buyers = [u["email"] for u in seed_state(shop, seed).records("users").values()
              if "email" in u]
    assert buyers and not any(email.endswith("@" + ours) for email in buyers), buyers
    # a project tool's project members are ours too: a departing colleague at a customer's
    # domain was asked for their laptop back "from" our own
    projects = load_openapi(_team_app("project_management", "project_members"),
                            "pm.example/openapi")
    members = [u["email"] for u in seed_state(projects, seed).records(
        "project_members").values() if "email" in u]
    assert members and all(email.endswith("@" + ours) for email in members), members


def test_each_team_app_also_knows_colleagues_the_others_do_not_yet():
    """Every team app held the same five colleagues, so a colleague read in one was known
    in every other, and no onboarding workflow ("set them up as a user in our project
    tool") found anyone new to set up: 0 of 20 walks. Two team apps share our colleagues,
    and each also holds joiners of its own, at our domain, named like nobody else."""
    from compoworld.world.seeding import seed_state

    seed = 5
    pool = draw_pool(seed)
    teams = [load_openapi(_team_app("collaboration"), f"team{i}.example/openapi")
             for i in (1, 2)]
    people = [{u["email"] for u in seed_state(team, seed).records("users").values()}
              for team in teams]
    shared, (first, second) = people[0] & people[1], people
    assert shared and shared <= {p.email for p in pool.colleagues}
    joiners = (first | second) - shared
    assert len(joiners) >= 2 and all(email.endswith("@" + pool.us.domain)
                                     for email in joiners), joiners
    assert not {email.split("@")[0] for email in joiners} & {
        p.email.split("@")[0] for p in pool.everyone}
    assert people == [{u["email"] for u in seed_state(team, seed).records("users").values()}
                      for team in teams]  # (the same seed: the same people)
