"""Vocabularies chosen by a field's name, for fields no format or shared type describes.

`field_kind(name, schema, resource)` reads a plain field's name (camel, snake or kebab
case alike) and says which vocabulary fits it: `status` -> status words, `api_version` ->
version strings, `sort_order` -> `asc`/`desc`, `category` -> category words of the
resource, `role` -> role words, `state` in an address -> a region code, and so on; None
when the name says nothing. `maker(kind, noun)` gives the generator of one kind, worked
out once at compile time (`noun` is the record's resource, singular: `expense`), so a
call stays a list pick. Nothing here draws from the filler list `words.WORDS`: a string
with no better signal becomes a slug of its field and a number (`label-204`).
"""

from __future__ import annotations

import random
import string
from collections.abc import Callable
from typing import Any

from compoworld.graph.semtypes import singularize, split_words
from compoworld.world.words import SENTENCES, TITLE_HEADS, TITLE_TOPICS, TITLES_BY_NOUN

Maker = Callable[[random.Random], Any]

# --- the vocabularies --------------------------------------------------------------------

_STATUS = {
    "order": "pending paid processing shipped delivered cancelled refunded",
    "invoice": "draft open paid void overdue",
    "payment": "pending succeeded failed refunded",
    "ticket": "open pending in_progress resolved closed",
    "issue": "open in_progress resolved closed",
    "task": "todo in_progress blocked done",
    "job": "queued running succeeded failed cancelled",
    "run": "queued running succeeded failed cancelled",
    "build": "queued running passed failed",
    "deployment": "pending in_progress succeeded failed",
    "instance": "pending running stopping stopped terminated",
    "subscription": "trialing active past_due cancelled",
    "message": "queued sent delivered failed read",
    "event": "scheduled confirmed cancelled completed",
    "booking": "pending confirmed cancelled completed",
    "": "active pending inactive suspended archived completed",
}
_CATEGORY = {
    "expense": "travel meals lodging software office_supplies training",
    "ticket": "bug feature_request question incident billing",
    "issue": "bug enhancement question documentation",
    "event": "meeting webinar conference workshop call",
    "account": "checking savings business personal",
    "payment": "card bank_transfer wallet cash",
    "file": "document image spreadsheet presentation archive",
    "document": "invoice contract report proposal receipt",
    "product": "electronics furniture apparel books groceries accessories",
    "item": "electronics furniture apparel books groceries accessories",
    "transaction": "purchase refund transfer withdrawal deposit",
    "message": "text image file notification",
    "notification": "email sms push in_app",
    "address": "home work billing shipping",
    "phone": "mobile home work fax",
    "vehicle": "sedan suv truck van motorcycle",
    "": "standard premium basic custom internal external",
}
_ROLE = "admin owner editor member viewer guest billing_manager"
_JOB_TITLES = ("Account Manager", "Office Manager", "Sales Director", "Software Engineer",
               "Marketing Lead", "Operations Manager", "Head of Finance", "Customer Success "
               "Manager", "Product Designer", "HR Coordinator", "Support Specialist",
               "Chief Executive Officer")
_HTTP_METHOD = "GET POST PUT PATCH DELETE"
_SORT = "asc desc"
_SORT_BY = "created_at updated_at name date priority"
_PRIORITY = "low medium high urgent"
_SEVERITY = "low medium high critical"
_LEVEL = "debug info warning error"
_FREQUENCY = "daily weekly monthly quarterly yearly"
_ENVIRONMENT = "production staging development test"
_CHANNEL = "email sms web phone chat"
_PLATFORM = "web ios android windows macos linux"
_GENDER = "female male non_binary"
_SIZE = "small medium large"
_UNIT = "kg g cm m hours minutes pieces"
_COLOR = "red green blue orange purple teal navy gray black white"
_FORMAT = "json csv pdf xml xlsx"
_MIME = ("application/json text/csv application/pdf image/png image/jpeg text/plain "
         "application/xml")
_PAYMENT_METHOD = "card bank_transfer paypal apple_pay direct_debit"
_SHIPPING = "standard express overnight pickup"
_CLOUD_REGIONS = ("us-east-1 us-west-2 eu-west-1 eu-central-1 ap-southeast-1 ap-northeast-1 "
                  "sa-east-1")
_AWS_SERVICES = "s3 ec2 lambda sns sqs dynamodb iam kms"
_TAGS = "urgent billing follow-up vip onboarding renewal priority internal"
_ICONS = "calendar star folder bell user chart mail flag"
_QUERY_TOPICS = TITLE_TOPICS
_FIELDS = "id,name id,name,created_at id,status id,email,updated_at"
_QUALIFIERS = ("Marketing", "Sales", "Engineering", "Support", "Finance", "Operations",
               "Design", "Customer", "Partner", "Internal", "Primary", "Regional", "Spring",
               "Q3", "Annual", "Weekly")
_VERSIONS = ("2024-06-01", "2023-10-16", "2025-01-15", "v1", "v2", "v3", "1.0.0", "1.4.0",
             "2.1.3", "3.0")
# US states, Canadian provinces and others, by the countries of `words.COUNTRIES`
REGION_CODES = ("CA NY TX IL WA MA FL CO GA OR").split()

# --- names to kinds ----------------------------------------------------------------------

# Whole names (words joined by `_`) first, then the last word.
_PHRASES = {
    "api_version": "version", "http_method": "http_method", "request_method": "http_method",
    "sort_order": "sort", "sort_direction": "sort", "sort_dir": "sort", "order_by": "sort_by",
    "sort_by": "sort_by", "sort_field": "sort_by", "order_direction": "sort",
    "payment_method": "payment_method", "shipping_method": "shipping", "delivery_method":
    "shipping", "content_type": "mime", "media_type": "mime", "mime_type": "mime",
    "file_type": "mime", "state_code": "region", "province_code": "region",
    "region_code": "region", "availability_zone": "cloud_region", "user_agent": "user_agent",
    "mac_address": "mac", "access_level": "role", "permission_level": "role",
    "next_token": "cursor", "page_token": "cursor", "next_page_token": "cursor",
    "continuation_token": "cursor", "starting_after": "cursor", "ending_before": "cursor",
    "account_number": "account_number", "routing_number": "routing", "iban": "iban",
    "promo_code": "coupon", "coupon_code": "coupon", "discount_code": "coupon",
    "error_code": "error_code", "status_code": "http_status", "response_code": "http_status",
    "time_of_day": "clock", "start_time_of_day": "clock", "color_hex": "hex_color",
    "hex_color": "hex_color", "background_color": "color",
    "job_title": "job_title", "position_title": "job_title", "position": "job_title",
    "job": "job_title", "occupation": "job_title", "designation": "job_title",
    "position_name": "job_title", "job_name": "job_title",
}
_LAST = {
    "status": "status", "state": "status", "stage": "status", "phase": "status",
    "version": "version", "ver": "version", "revision": "version",
    "type": "category", "kind": "category", "category": "category", "categories": "category",
    "class": "category", "genre": "category", "classification": "category",
    "group": "category", "segment": "category", "tier": "category", "plan": "category",
    "role": "role", "roles": "role", "permission": "role", "permissions": "role",
    "scope": "scope", "scopes": "scope",
    "method": "http_method", "verb": "http_method",
    "sort": "sort", "order": "sort", "direction": "sort", "dir": "sort",
    "priority": "priority", "severity": "severity", "level": "level", "urgency": "priority",
    "frequency": "frequency", "interval": "frequency", "period": "frequency",
    "recurrence": "frequency", "environment": "environment", "env": "environment",
    "channel": "channel", "medium": "channel", "platform": "platform", "os": "platform",
    "device": "platform", "gender": "gender", "sex": "gender", "size": "size",
    "unit": "unit", "units": "unit", "uom": "unit",
    "color": "color", "colour": "color", "hex": "hex_color",
    "format": "format", "encoding": "encoding", "charset": "encoding",
    "region": "cloud_region", "zone": "cloud_region", "province": "region",
    "arn": "arn", "token": "token", "key": "token", "secret": "token", "password": "password",
    "signature": "token", "hash": "digest", "checksum": "digest", "etag": "digest",
    "sha": "digest", "digest": "digest", "fingerprint": "digest", "nonce": "token",
    "cursor": "cursor", "marker": "cursor", "after": "cursor", "before": "cursor",
    "code": "code", "sku": "sku", "slug": "slug", "ref": "reference",
    "reference": "reference", "number": "reference", "no": "reference",
    "tag": "tag", "tags": "tag", "label": "tag", "labels": "tag", "keyword": "query",
    "keywords": "query", "query": "query", "q": "query", "search": "query", "term": "query",
    "filter": "query", "path": "path", "folder": "path", "directory": "path", "dir_path": "path",
    "icon": "icon", "image": "image_url", "avatar": "image_url", "photo": "image_url",
    "logo": "image_url", "thumbnail": "image_url", "picture": "image_url",
    "callback": "url", "redirect": "url", "webhook": "url", "endpoint": "url",
    "fields": "fields", "expand": "fields", "include": "fields", "select": "fields",
    "reason": "sentence", "details": "sentence", "instructions": "sentence",
    "question": "sentence", "answer": "sentence", "caption": "sentence", "remarks": "sentence",
    "memo": "sentence", "purpose": "sentence", "explanation": "sentence", "bio": "sentence",
    "name": "name", "label_name": "name", "alias": "name", "nickname": "name",
    "duration": "duration", "year": "year", "month": "month", "day": "weekday",
    "weekday": "weekday", "quantity": "quantity", "qty": "quantity", "count": "quantity",
    "limit": "limit", "per_page": "limit", "page_size": "limit", "size_limit": "limit",
    "max_results": "limit", "page": "page", "offset": "offset", "skip": "offset",
    "start": "offset", "age": "age", "port": "port", "timeout": "seconds",
    "ttl": "seconds", "seconds": "seconds", "minutes": "minutes", "rating": "rating",
    "score": "rating", "stars": "rating", "percent": "percent", "percentage": "percent",
    "rate": "percent", "weight": "weight", "height": "height", "width": "width",
}
_PAGE_PHRASES = {"per_page": "limit", "page_size": "limit", "max_results": "limit",
                 "max_items": "limit", "page_number": "page", "max_records": "limit"}
_NUMERIC_KINDS = frozenset("year quantity limit page offset age port seconds minutes rating "
                           "percent weight height width http_status duration".split())
# A `state`/`region` next to city or zip fields is the address's region, not a status; so
# is one an address word qualifies (`bill_state`, `shipping_state`), alone in a call.
PLACE_KINDS = frozenset({"region"})
_ADDRESS_ROLES = frozenset("bill billing ship shipping home mailing address postal delivery "
                           "residence residential office business".split())


def field_kind(name: str, schema: dict[str, Any], resource: str | None = None, *,
               place: bool = False) -> str | None:
    """The vocabulary a field's name calls for (None: its name says nothing we know)."""
    words = split_words(name)
    if not words:
        return None
    phrase = "_".join(words)
    kind = _PHRASES.get(phrase) or _PAGE_PHRASES.get(phrase)
    if kind is None and len(words) > 1:
        kind = _PHRASES.get("_".join(words[-2:])) or _PAGE_PHRASES.get("_".join(words[-2:]))
    kind = kind or _LAST.get(words[-1])
    if kind is None and len(words) > 1 and words[-1] in ("name", "title"):
        kind = "name"
    if kind in ("status", "cloud_region") and words[-1] in ("state", "region") and (
            place or (len(words) > 1 and words[-2] in _ADDRESS_ROLES)):
        kind = "region"
    json_kind = schema.get("type") if isinstance(schema, dict) else None
    if json_kind in ("integer", "number"):
        return kind if kind in _NUMERIC_KINDS or kind in ("version", "reference",
                                                           "account_number") else None
    return None if kind in _NUMERIC_KINDS - {"year", "duration", "http_status"} else kind


def resource_noun(resource: str | None) -> str:
    """The singular last word of a resource (`expense_reports` -> `report`), or ""."""
    words = split_words(resource or "")
    return singularize(words[-1]) if words else ""


# --- generators --------------------------------------------------------------------------


def _pick(words: str) -> Maker:
    options = tuple(words.split())
    return lambda rng: rng.choice(options)


def _by_noun(table: dict[str, str], noun: str) -> Maker:
    return _pick(table.get(noun) or table[""])


def _chars(rng: random.Random, alphabet: str, count: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(count))


_HEX = string.digits + "abcdef"
_B62 = string.ascii_letters + string.digits


def _name(noun: str) -> Maker:
    label = noun.replace("_", " ").title() if noun else ""
    if not label:
        return lambda rng: f"{rng.choice(TITLE_HEADS)} {rng.choice(TITLE_TOPICS)}"
    return lambda rng: f"{rng.choice(_QUALIFIERS)} {label}"


def stand_in_name(value: Any) -> bool:
    """Whether a value is a name `_name` made up for a record no pool entity names
    ("Annual Contact", "Primary Order"): a label, no name anyone gave the record."""
    words = value.split(" ") if isinstance(value, str) else []
    return len(words) == 2 and words[0] in _QUALIFIERS and words[1][:1].isupper()


def _titled(noun: str) -> Maker:
    heads, topics = TITLES_BY_NOUN.get(noun) or (TITLE_HEADS, TITLE_TOPICS)
    return lambda rng: f"{rng.choice(heads)} {rng.choice(topics)}"


def _slug(base: str) -> Maker:
    base = base or "item"
    return lambda rng: f"{base}-{rng.randint(100, 999)}"


def _arn(rng: random.Random) -> str:
    service = rng.choice(_AWS_SERVICES.split())
    region = "" if service in ("s3", "iam") else rng.choice(_CLOUD_REGIONS.split())
    account = "" if service == "s3" else _chars(rng, string.digits, 12)
    topic = rng.choice(TITLE_TOPICS).replace(" ", "-")
    return f"arn:aws:{service}:{region}:{account}:{topic}"


def maker(kind: str, noun: str = "", field: str = "") -> Maker:
    """The generator of one vocabulary kind for records of `noun` (`field`: the field)."""
    upper = (noun[:3] or field[:3] or "ref").upper()
    simple: dict[str, Maker] = {
        "status": _by_noun(_STATUS, noun), "category": _by_noun(_CATEGORY, noun),
        "role": _pick(_ROLE), "job_title": lambda rng: rng.choice(_JOB_TITLES),
        "http_method": _pick(_HTTP_METHOD), "sort": _pick(_SORT),
        "sort_by": _pick(_SORT_BY), "priority": _pick(_PRIORITY),
        "severity": _pick(_SEVERITY), "level": _pick(_LEVEL), "frequency": _pick(_FREQUENCY),
        "environment": _pick(_ENVIRONMENT), "channel": _pick(_CHANNEL),
        "platform": _pick(_PLATFORM), "gender": _pick(_GENDER), "size": _pick(_SIZE),
        "unit": _pick(_UNIT), "color": _pick(_COLOR), "format": _pick(_FORMAT),
        "mime": _pick(_MIME), "encoding": _pick("utf-8 base64 gzip"),
        "payment_method": _pick(_PAYMENT_METHOD), "shipping": _pick(_SHIPPING),
        "cloud_region": _pick(_CLOUD_REGIONS), "region": _pick(" ".join(REGION_CODES)),
        "tag": _pick(_TAGS), "icon": _pick(_ICONS), "fields": _pick(_FIELDS),
        "scope": _pick("read write admin read:users write:orders"),
        "weekday": _pick("monday tuesday wednesday thursday friday"),
        "clock": _pick("08:00 09:30 12:00 14:15 17:45"),
        "version": lambda rng: rng.choice(_VERSIONS),
        "hex_color": lambda rng: "#" + _chars(rng, _HEX, 6),
        "arn": _arn,
        "token": lambda rng: _chars(rng, _B62, 32),
        "password": lambda rng: "Pw-" + _chars(rng, _B62, 12) + "!",
        "digest": lambda rng: _chars(rng, _HEX, 40),
        "cursor": lambda rng: _chars(rng, _B62, 24),
        "code": lambda rng: f"{upper}-{rng.randint(1000, 9999)}",
        "coupon": lambda rng: rng.choice(("SAVE", "WELCOME", "SPRING", "VIP")) + str(
            rng.choice((10, 15, 20, 25))),
        "error_code": lambda rng: rng.choice(("E1001", "E2040", "E4004", "E5002")),
        "sku": lambda rng: f"SKU-{rng.randint(10000, 99999)}",
        "slug": lambda rng: f"{rng.choice(TITLE_TOPICS).replace(' ', '-')}-{rng.randint(1, 99)}",
        "reference": lambda rng: f"{upper}-{rng.randint(2023, 2025)}-{rng.randint(1, 9999):04d}",
        "account_number": lambda rng: _chars(rng, string.digits, 10),
        "routing": lambda rng: _chars(rng, string.digits, 9),
        "iban": lambda rng: "DE89" + _chars(rng, string.digits, 18),
        "query": lambda rng: rng.choice(_QUERY_TOPICS),
        "path": lambda rng: f"/{rng.choice(('reports', 'shared', 'projects', 'archive'))}/"
                            f"{rng.choice(TITLE_TOPICS).replace(' ', '-')}",
        "image_url": lambda rng: f"https://images.example.com/{noun or 'item'}/"
                                 f"{rng.randint(1000, 9999)}.jpg",
        "url": lambda rng: f"https://hooks.example.com/{noun or 'events'}/{rng.randint(1, 999)}",
        "user_agent": lambda rng: "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) "
                                  "AppleWebKit/605.1.15 (KHTML, like Gecko) Safari/605.1.15",
        "mac": lambda rng: ":".join(_chars(rng, _HEX, 2) for _ in range(6)),
        "sentence": lambda rng: rng.choice(SENTENCES),
        "name": _name(noun),
        "titled": _titled(noun),
        "duration": lambda rng: rng.choice(("PT15M", "PT30M", "PT1H", "PT2H", "P1D")),
        "http_status": lambda rng: rng.choice((200, 201, 204, 400, 404, 500)),
        "year": lambda rng: rng.randint(2019, 2026),
        "month": lambda rng: rng.randint(1, 12),
        "quantity": lambda rng: rng.randint(1, 12),
        "limit": lambda rng: rng.choice((10, 20, 25, 50, 100)),
        "page": lambda rng: rng.randint(1, 5),
        "offset": lambda rng: rng.choice((0, 0, 10, 20, 50)),
        "age": lambda rng: rng.randint(18, 80),
        "port": lambda rng: rng.choice((443, 8080, 5432, 6379, 3306, 8443)),
        "seconds": lambda rng: rng.choice((30, 60, 300, 900, 3600)),
        "minutes": lambda rng: rng.choice((15, 30, 45, 60, 90)),
        "rating": lambda rng: rng.randint(1, 5),
        "percent": lambda rng: rng.choice((5, 10, 12.5, 15, 20, 25, 50)),
        "weight": lambda rng: round(rng.uniform(0.2, 25), 1),
        "height": lambda rng: rng.randint(10, 200),
        "width": lambda rng: rng.randint(10, 200),
    }
    return simple.get(kind) or fallback(field, noun)


def fallback(field: str, noun: str = "") -> Maker:
    """A generic string with no better signal: a slug of the field (or resource) and a
    number, such as `label-204`; never a filler word."""
    words = [w for w in split_words(field) if w.isalpha()][-2:]
    return _slug("-".join(words) or noun)


# Keys of free-form maps (`metadata`, `labels`): what people put there.
MAP_KEYS = ("team", "env", "owner", "project", "source", "region", "tier", "cost_center")

# Word pairs of ordered fields: `start_date` <= `end_date`, `created_at` <= `updated_at`.
_RANGES = (("start", "end"), ("from", "to"), ("begin", "end"), ("created", "updated"),
           ("created", "modified"), ("since", "until"), ("min", "max"), ("earliest", "latest"),
           ("check_in", "check_out"), ("departure", "arrival"), ("opened", "closed"),
           ("starts", "ends"), ("after", "before"), ("issued", "due"), ("valid_from", "valid_to"))
_ORDERED_TYPES = frozenset({"date", "datetime", "time", "integer", "number", "money"})
_LOOSE_KEYS = frozenset({"description", "title", "example", "examples", "x-example"})


def range_pairs(props: dict[str, Any], types: dict[str, str]) -> list[tuple[str, str]]:
    """(early, late) field pairs of one object that must come in order, such as
    (`start_date`, `end_date`) or (`created_at`, `updated_at`): same type, same shape."""
    by_words = {tuple(split_words(key)): key for key in props}
    pairs = []
    for words, key in by_words.items():
        if types.get(key) not in _ORDERED_TYPES:
            continue
        for early, late in _RANGES:
            first, then = tuple(early.split("_")), tuple(late.split("_"))
            for index in range(len(words)):
                if words[index:index + len(first)] != first:
                    continue
                other = (*words[:index], *then, *words[index + len(first):])
                match = by_words.get(other)
                if match and match != key and types.get(match) == types[key] and _shape(
                        props[key]) == _shape(props[match]):
                    pairs.append((key, match))
    return list(dict.fromkeys(pairs))


def _shape(schema: Any) -> Any:
    if not isinstance(schema, dict):
        return schema
    return {k: v for k, v in schema.items() if k not in _LOOSE_KEYS}
