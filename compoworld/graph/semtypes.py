"""Semantic types: the shared interfaces that let one tool's output feed another's input.

Every parameter and returned field gets one type name (DESIGN.md, "Shared interfaces"):

1. entity ids: a field named `id` (or Asana's `gid`) is `<service>.<resource>.id`;
   `contactId`, `contact_id`, `contact-id` and `contact_gid` are `<service>.contacts.id`
   (the noun before `id`, pluralised). An `id`
   with no known resource falls back to its JSON type.
2. JSON Schema `format` (`email`, `date-time` -> `datetime`, `uri` -> `url`, ...).
3. the field name (case/style insensitive: camelCase, snake_case and kebab-case read alike),
   mostly by its last word (`billing_email` -> `email`), only when the JSON type fits; an
   address of a message's ends (`To`, `From`, `recipient`) by what its description says it
   holds (Postmark's `To`: "Recipient email address").
4. the JSON type: `string`, `integer`, `number`, `boolean`, `object`, `array`.

`SHARED_TYPES` is the registry of shared type names (name -> short description); a later
stage attaches a seeded value generator to each. Keep it a plain dict keyed by type name.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

SHARED_TYPES: dict[str, str] = {
    "email": "An email address.",
    "phone": "A telephone number.",
    "url": "A web address (URL or URI).",
    "uuid": "A UUID string.",
    "datetime": "A date and time (ISO 8601).",
    "date": "A calendar date (ISO 8601, YYYY-MM-DD).",
    "time": "A time of day (ISO 8601).",
    "ipv4": "An IPv4 address.",
    "ipv6": "An IPv6 address.",
    "hostname": "A host or domain name.",
    "country": "A country, as an ISO 3166 code or a name.",
    "currency": "A currency, as an ISO 4217 code.",
    "money": "An amount of money (amount, price, total, cost, fee, balance).",
    "first_name": "A person's given name.",
    "last_name": "A person's family name.",
    "person_name": "A person's full or display name.",
    "username": "A login name or handle.",
    "company": "The name of a company or organization.",
    "city": "A city or town.",
    "address": "A street address.",
    "postal_code": "A postal or ZIP code.",
    "latitude": "A latitude in degrees.",
    "longitude": "A longitude in degrees.",
    "language": "A language or locale code (e.g. `en`, `en-US`).",
    "timezone": "A time zone name (e.g. `Europe/Paris`).",
    "filename": "A file name or path.",
    "title": "A short title, subject or name of an item.",
    "text": "Free text: a description, body, message, comment or note.",
}

# Plain JSON types, used when nothing more specific is known.
FALLBACK_TYPES = ("string", "integer", "number", "boolean", "object", "array")

_FORMATS = {
    "email": "email", "idn-email": "email",
    "date-time": "datetime", "datetime": "datetime", "date": "date", "time": "time",
    "uri": "url", "url": "url", "uri-reference": "url", "iri": "url", "iri-reference": "url",
    "uuid": "uuid", "guid": "uuid",
    "ipv4": "ipv4", "ip-address": "ipv4", "ipv6": "ipv6",
    "hostname": "hostname", "idn-hostname": "hostname",
    "phone": "phone", "tel": "phone", "phone-number": "phone",
    "country-code": "country", "currency": "currency", "currency-code": "currency",
    "language": "language", "locale": "language", "timezone": "timezone",
}

_STRING = frozenset({"string"})
_NUMERIC = frozenset({"string", "integer", "number"})
_COORD = frozenset({"string", "number"})

# Which JSON types a shared type may have: `email_verified` (boolean) is not an email.
_ALLOWED = {
    "money": _NUMERIC, "latitude": _COORD, "longitude": _COORD, "postal_code": _NUMERIC,
}

# Whole-name phrases (words joined by `_`), checked before the last-word rules.
_PHRASES = {
    "first_name": "first_name", "firstname": "first_name", "given_name": "first_name",
    "forename": "first_name", "last_name": "last_name", "lastname": "last_name",
    "family_name": "last_name", "surname": "last_name", "full_name": "person_name",
    "fullname": "person_name", "person_name": "person_name", "contact_name": "person_name",
    "customer_name": "person_name", "user_full_name": "person_name",
    "company_name": "company", "organization_name": "company", "org_name": "company",
    "business_name": "company", "ip": "ipv4", "ip_address": "ipv4", "email_address": "email",
    "zip_code": "postal_code", "postal_code": "postal_code", "post_code": "postal_code",
    "country_code": "country", "currency_code": "currency", "language_code": "language",
    "time_zone": "timezone", "file_name": "filename", "file_path": "filename",
    "user_name": "username", "screen_name": "username", "street_address": "address",
    "address_line_1": "address", "address_1": "address", "address_line": "address",
    "phone_number": "phone", "mobile_number": "phone", "telephone_number": "phone",
    "fax_number": "phone", "cell_number": "phone", "web_site": "url", "home_page": "url",
    "date_of_birth": "date", "birth_date": "date",
}

# Last-word rules: `billing_email` -> email, `avatar_url` -> url.
_LAST_WORD = {
    "email": "email", "phone": "phone", "telephone": "phone", "mobile": "phone",
    "fax": "phone", "tel": "phone", "cell": "phone", "url": "url", "uri": "url",
    "website": "url", "homepage": "url",
    "link": "url", "href": "url", "uuid": "uuid", "guid": "uuid", "country": "country",
    "nationality": "country", "currency": "currency", "amount": "money", "price": "money",
    "cost": "money", "fee": "money", "balance": "money", "subtotal": "money",
    "firstname": "first_name", "lastname": "last_name", "surname": "last_name",
    "username": "username", "login": "username", "handle": "username",
    "company": "company", "organization": "company", "organisation": "company",
    "employer": "company", "city": "city", "town": "city", "street": "address",
    "zip": "postal_code", "zipcode": "postal_code",
    "postcode": "postal_code", "latitude": "latitude", "lat": "latitude",
    "longitude": "longitude", "lng": "longitude", "lon": "longitude",
    "language": "language", "locale": "language", "lang": "language",
    "timezone": "timezone", "tz": "timezone", "filename": "filename", "file": "filename",
    "title": "title", "subject": "title", "headline": "title", "description": "text",
    "text": "text", "body": "text", "content": "text", "message": "text",
    "comment": "text", "note": "text", "notes": "text", "summary": "text", "bio": "text",
    "hostname": "hostname", "host": "hostname", "domain": "hostname",
    "birthday": "date", "dob": "date", "date": "date", "timestamp": "datetime",
}

# Records whose `summary` is their one-line title, not a text about them.
_TITLED_BY_SUMMARY = frozenset("events meetings appointments issues tickets tasks todos "
                               "incidents bugs cards".split())

_TIMED = frozenset("events meetings appointments bookings sessions calls".split())

# Date/time suffixes that only apply to strings: `created_at`, `start_time`, `due_date`.
_TIME_SUFFIX = {"at": "datetime", "time": "datetime", "datetime": "datetime"}

_MONEY_TOTALS = (["grand"], ["order"], ["invoice"], ["sub"], ["cart"], ["line"], ["amount"])

_STREET = frozenset("street shipping billing physical mailing home postal business office "
                    "delivery residential work primary registered legal".split())

# `<word>_name`: `file_name` -> filename, `company_name` -> company.
_NAME_OF = {"file": "filename", "host": "hostname", "domain": "hostname", "user": "username",
            "company": "company", "organization": "company", "business": "company",
            "country": "country", "city": "city"}

# `name` alone means a person in these collections, a company in the next ones.
_PEOPLE = frozenset(
    "users contacts customers people persons members employees candidates leads attendees "
    "recipients authors owners participants students teachers patients guests agents "
    "subscribers players".split()
)
# Roles a person plays: `<role>_name` is a person's name.
_ROLES = frozenset("senders receivers requesters assignees reporters creators approvers "
                   "reviewers payees payers buyers sellers hosts organizers".split())
_ORGS = frozenset("companies organizations organisations orgs businesses vendors "
                  "suppliers merchants tenants partners firms agencies employers".split())
ORG_COLLECTIONS = _ORGS  # collections whose records are organisations

_IRREGULAR = {"person": "people", "child": "children", "man": "men", "woman": "women",
              "index": "indices", "analysis": "analyses",
              "status": "statuses", "alias": "aliases", "criterion": "criteria"}
_IRREGULAR_SINGULAR = {plural: single for single, plural in _IRREGULAR.items()}
_UNCOUNTABLE = frozenset("data media info information metadata news series species settings "
                         "feedback equipment software hardware weather".split())
_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


def split_words(name: str) -> list[str]:
    """Split a camelCase, snake_case, kebab-case or dotted name into lowercase words."""
    return list(_split_words(name))


def plainness(tool: str) -> int:
    """How many words a tool's own name has, its service prefix left out (`zoom__users`: 1,
    `zoom__list_phone_users`: 3): the plainest list or read of a collection comes first."""
    return len(split_words(tool.rsplit("__", 1)[-1]))


@lru_cache(maxsize=1 << 16)  # field names repeat across thousands of operations
def _split_words(name: str) -> tuple[str, ...]:
    return tuple(w.lower() for w in _WORD.findall(name))


def snake_case(name: str) -> str:
    """`paymentMethodId` / `payment-method-id` -> `payment_method_id`."""
    return "_".join(split_words(name))


def is_plural(word: str) -> bool:
    """Whether an English noun already looks plural (`contacts`, `people`, `data`)."""
    if word in _IRREGULAR_SINGULAR or word in _UNCOUNTABLE:
        return True
    return word.endswith("s") and not word.endswith(("ss", "us", "is"))


def pluralize(word: str) -> str:
    """`contact` -> `contacts`, `company` -> `companies`; plural words are kept."""
    if not word or is_plural(word) or word.isdigit():
        return word
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if word.endswith("y") and word[-2:-1] not in ("a", "e", "i", "o", "u"):
        return word[:-1] + "ies"
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    return word + "s"


def singularize(word: str) -> str:
    """`contacts` -> `contact`, `companies` -> `company`, `addresses` -> `address`."""
    if word in _IRREGULAR_SINGULAR:
        return _IRREGULAR_SINGULAR[word]
    if word in _UNCOUNTABLE or not is_plural(word):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "zzes", "ches", "shes")):
        return word[:-2]
    return word[:-1]


def entity_id_type(service: str, resource: str) -> str:
    """The type of the ids of one collection: `crm.contacts.id`."""
    words = split_words(resource)
    if words:
        words[-1] = pluralize(words[-1])
    return f"{service}.{'_'.join(words) or resource}.id"


# Last words of a field that keys a record: `id`, a `uuid`, a `guid`, Asana's `gid` (its
# "global id": `task_gid`, a record's own `gid`), a `key`, a Twilio `sid`.
KEY_WORDS = ("id", "uuid", "guid", "gid", "key", "sid")


def is_entity_id(type_name: str) -> bool:
    """Whether a type name is an entity id (`<service>.<resource>.id`)."""
    return type_name.endswith(".id") and type_name.count(".") == 2


# Collections a user's own account is in: a Codat `companyId` (and its `connectionId`), a
# Sakari `accountId` or a Twilio chat `ServiceSid` names the workspace the user works in,
# known to them as a setting is, not a record they look up.
_TENANTS = frozenset("accounts companies workspaces organizations organisations orgs tenants "
                     "teams businesses merchants sites stores shops connections services".split())


def is_tenant_id(type_name: str) -> bool:
    """Whether an id type names the user's own account or workspace (`x.companies.id`)."""
    parts = type_name.split(".")
    return is_entity_id(type_name) and parts[1] in _TENANTS


def json_type(schema: dict[str, Any]) -> str:
    """The schema's JSON type as one name (first non-null of a type list; inferred if absent)."""
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), None)
    if isinstance(kind, str) and kind in FALLBACK_TYPES:
        return kind
    if "properties" in schema or "additionalProperties" in schema:
        return "object"
    if "items" in schema:
        return "array"
    return "string"


def _fits(shared: str, kind: str) -> bool:
    return kind in _ALLOWED.get(shared, _STRING)


def semantic_type(
    name: str, schema: dict[str, Any], *, service: str, resource: str | None
) -> str:
    """The semantic type of one field: an entity id, a shared type, or a JSON type."""
    schema = schema if isinstance(schema, dict) else {}
    kind = json_type(schema)
    words = split_words(name)
    if kind in ("string", "integer") and words and words[-1] == "idfk":
        words = [*words[:-1], "id"]  # Avaza's `ProjectIDFK`: a foreign key, an id
    if kind in ("string", "integer") and words and words[-1] in ("id", "ids", "gid"):
        if len(words) == 1:
            if resource:
                return entity_id_type(service, resource)
        elif words[-2:] != ["external", "id"]:
            return entity_id_type(service, "_".join(words[:-1]))
    fmt = schema.get("format")
    if isinstance(fmt, str) and fmt.lower() in _FORMATS and kind == "string":
        return _FORMATS[fmt.lower()]
    if kind == "array" and (listed := _listed(words, schema)):
        return listed
    if not words or kind in ("object", "array", "boolean"):
        return kind
    found = _by_name(words, kind, resource) or _by_description(words, kind, schema)
    return found if found and _fits(found, kind) else kind


# Lists of the people a message or an invitation goes to, by name (`to`, `attendees`).
_PEOPLE_LISTS = frozenset("to recipients attendees invitees participants guests emails "
                          "email_addresses".split())


def _listed(words: list[str], schema: dict[str, Any]) -> str | None:
    """`email` for a list of plain strings that are the addresses a message or an
    invitation goes to (Gmail's `to: ["ann@x.org"]`, a calendar's `attendees`): a found
    email goes into it as a list of one. Lists of anything else stay arrays."""
    items = schema.get("items")
    if not isinstance(items, dict) or json_type(items) != "string" or \
            "_".join(words) not in _PEOPLE_LISTS:
        return None
    text = " ".join(str(s.get("description") or "") for s in (schema, items))
    fmt = str(items.get("format") or "")
    return "email" if fmt == "email" or _SAYS_EMAIL.search(text) or "email" in words else None


# Parameters that name a message's sender or recipient, typed by what they hold: an email
# API's `To` is an email address, a texting API's `to` a phone number.
_ENDS = frozenset({"to", "from", "recipient", "recipients", "sender", "destination"})
_SAYS_EMAIL = re.compile(r"\be-?mail\b", re.I)
_SAYS_PHONE = re.compile(r"\b(?:phone|mobile|telephone|cell)\b|\bmsisdn\b|\be\.?164\b", re.I)


def _by_description(words: list[str], kind: str, schema: dict[str, Any]) -> str | None:
    """`email` for a string end of a message (`To`) its description calls an email
    address ("Recipient email address. Multiple addresses are comma separated."), `phone`
    for one it calls a phone number and no address ("Telephone number of the recipient":
    an SMS API's `destination`); one it calls both stays a string."""
    text = schema.get("description")
    if kind != "string" or "_".join(words) not in _ENDS or not isinstance(text, str):
        return None
    email, phone = bool(_SAYS_EMAIL.search(text)), bool(_SAYS_PHONE.search(text))
    return "email" if email and not phone else "phone" if phone and not email else None


def _by_name(words: list[str], kind: str, resource: str | None) -> str | None:
    phrase = "_".join(words)
    if phrase in _PHRASES:
        return _PHRASES[phrase]
    if len(words) > 1 and "_".join(words[-2:]) in _PHRASES:
        return _PHRASES["_".join(words[-2:])]
    last = words[-1]
    if last == "name":
        if len(words) > 1 and words[-2] in _NAME_OF:
            return _NAME_OF[words[-2]]
        if len(words) > 1 and pluralize(words[-2]) in _PEOPLE | _ROLES:
            return "person_name"  # `sender_name`, `owner_name`, `customer_name`
        noun = split_words(resource or "")[-1:]
        if phrase in ("name", "display_name") and noun:
            if pluralize(noun[0]) in _PEOPLE:
                return "person_name"
            if pluralize(noun[0]) in _ORGS:
                return "company"
        return "title"
    head = split_words(resource or "")[-1:]
    if phrase == "summary" and head and pluralize(head[0]) in _TITLED_BY_SUMMARY:
        return "title"  # a calendar event's or a Jira issue's `summary` is its title
    if phrase in ("start", "end") and kind == "string" and head \
            and pluralize(head[0]) in _TIMED:  # an event's bare `start` is when it starts
        return "datetime"  # (a Google Calendar MCP event's: it was drawn "Spring Start")
    if last == "total":
        # An integer `total` is usually a count (`messagesTotal`); `grand_total` is money.
        return "money" if kind == "number" or words[-2:-1] in _MONEY_TOTALS else None
    if last == "address":
        # `billing_address` is a street address; `mac_address`, `start_address` are not.
        return "address" if len(words) == 1 or words[-2] in _STREET else None
    if last in _TIME_SUFFIX and len(words) > 1:
        return _TIME_SUFFIX[last]
    if last in ("utc", "gmt") and len(words) > 1:  # `requestedOnUtc`, `created_utc`
        return "datetime"
    if last == "on" and len(words) > 1 and words[-2].endswith("ed"):
        return "datetime"  # `createdOn`, `modified_on`; not `depends_on`
    return _LAST_WORD.get(last)
