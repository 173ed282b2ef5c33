"""The world every service lives in: one cast, one `now`, one way to derive seeds.

- `words`: embedded word lists and the entities made from them (people, companies, places,
  products);
- `seeding`: the cast of a world (`draw_pool`), the start state of a service
  (`seed_state`) and `World` (services over one pool, reset and snapshot);
- `values`, `schemavalues`, `fieldsources`, `patterns`: values that fit their field
  (enum and examples first, then format and semantic type, then the field's name);
- `state`: typed state (`State`), the domain errors tools raise, `diff`;
- `seeds`: `derive_seed`, `world_seed`, `service_seed`;
- `clock`: `NOW`.

Built-in services and corpus services draw their people from the same `draw_pool`, so a
CRM contact can be the recipient of a corpus mail service's message.
"""
