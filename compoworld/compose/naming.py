"""How instructions name things: values, fields, parameters and the records tools work on.

Shared by both instruction writers (instruction.py dictates steps, goal.py states a goal).
`render_value` is how a value appears in any instruction; the verifier checks a visible
value's presence with it. `record_noun` is what a person calls the record a call works
on: the collection's singular noun (`contact`, `device registration`) when the tool's
resource is known, else the head noun of the tool's name, else the neutral `record`.
"""

from __future__ import annotations

import json
import random
import re
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from compoworld.graph.semtypes import is_entity_id, is_plural, singularize, split_words
from compoworld.world.words import CITIES

CITY_ZONES = {row[0]: row[4] for row in CITIES}  # a city's time zone

GENERIC = {
    "read": {"get", "list", "search", "find", "fetch", "retrieve", "read", "query", "lookup",
             "show", "describe", "view"},
    "create": {"create", "add", "new", "insert"},
    "update": {"update", "patch", "put", "edit", "modify", "set", "change"},
    "delete": {"delete", "remove", "destroy", "del"},
}
VERBS = set().union(*GENERIC.values()) | {"post"}
PREPOSITIONS = {"by", "for", "with", "from", "in", "of", "to", "on", "at", "into", "as"}
CONTAINERS = {"data", "items", "results", "records", "value", "values", "entries", "list",
              "response", "body", "result", "objects", "content"}
PARAM_ALIASES = {"to": "recipient", "q": "search text", "cc": "cc address", "from": "sender"}
CONTROL = {"limit", "page", "offset", "per", "size", "sort", "order", "cursor", "after",
           "before", "expand", "fields", "include", "format", "max", "top", "skip"}
# Words of a tool name that never name a record (`contacts_one`, `users_all`, `expense_get`).
_NOT_NOUNS = VERBS | PREPOSITIONS | CONTAINERS | {
    "one", "all", "many", "id", "ids", "by", "info", "details", "detail", "api", "v", "me",
    "current", "bulk", "batch", "single", "each", "datum", "latest", "new", "own", "my"}


def render_value(value: Any) -> str:
    """How a value appears in an instruction: a string as it is, anything else as sorted JSON.

    The verifier checks a visible value's presence with the same function.
    """
    if isinstance(value, str):
        return value
    return json.dumps(value, sort_keys=True, default=str)


def tool_words(tool: str, effect: str) -> tuple[str, list[str]]:
    """`stripe_com__post_customers` -> (`post`, [`customers`]); `invite_to_channel` keeps its
    preposition (`invite`, [`to`, `channel`]); the verb is "" when there is none."""
    words = [w for w in split_words(tool.rsplit("__", 1)[-1]) if not w.isdigit() and w != "v"]
    if len(words) > 1 and words[-1] in VERBS and words[0] not in VERBS:
        words = [words[-1], *words[:-1]]  # `customers_list` -> `list customers`
    has_verb = bool(words) and (words[0] in VERBS or (  # a lone non-read word is a verb
        effect != "read" and (len(words) > 1 or not is_plural(words[0]))))
    verb, noun = (words[0], words[1:]) if has_verb else ("", words)
    if not (noun and noun[0] in PREPOSITIONS):
        noun = noun[: next((i for i, w in enumerate(noun) if w in PREPOSITIONS), len(noun))]
    # `get_customers_customer` -> `customer`, `accounts_account_persons` -> `account persons`
    noun = [w for i, w in enumerate(noun)
            if i + 1 == len(noun) or singularize(w) != singularize(noun[i + 1])]
    return verb, noun


def tool_noun(tool: str, effect: str) -> str:
    """The singular thing a tool's name says it works on: `contact`, `customer`, `channel`."""
    noun = tool_words(tool, effect)[1]
    if noun and noun[0] in PREPOSITIONS:
        noun = noun[1:]
    return " ".join(noun[:-1] + [singularize(noun[-1])]) if noun else "record"


def record_noun(tool: str, effect: str, resource: str | None = None) -> str:
    """What a person calls the record a tool works on, in plain singular words.

    The resource (collection) names it best: `device_registrations` -> `device
    registration`. Without one, the last word of the tool's name that is a noun (`users_all`
    -> `user`, `contacts_one` -> `contact`); `record` when no word qualifies.
    """
    for words in (split_words(resource or ""), _tool_nouns(tool, effect)):
        words = [w for w in words if not w.isdigit()]
        while words and words[-1] in _NOT_NOUNS:
            words = words[:-1]  # `url_browser_data` -> `url browser`
        words = [w for w in words if w not in _NOT_NOUNS][-2:]
        if words and len(words[-1]) > 2:
            return " ".join([*words[:-1], singularize(words[-1])])
    return "record"


def _tool_nouns(tool: str, effect: str) -> list[str]:
    verb, noun = tool_words(tool, effect)
    return [w for w in noun if w not in PREPOSITIONS] or ([] if verb else noun)


def is_key(param: str, kind: str, noun: str) -> bool:
    """Whether an argument of semantic type `kind` names the record a call works on."""
    if is_entity_id(kind):
        return singularize(kind.split(".")[1].split("_")[-1]) == noun.split()[-1]
    words = split_words(param)
    return words in (["id"], [*split_words(noun), "id"])


def is_control(param: str) -> bool:
    """Paging and sorting parameters: `limit 10`, not `whose limit is 10`."""
    return bool(CONTROL.intersection(split_words(param)))


def plural_words(words: list[str]) -> bool:
    """Whether a name's last word is a plural noun (`customers`, not `news`)."""
    return bool(words) and is_plural(words[-1]) and singularize(words[-1]) != words[-1]


_GENERIC_LEAVES = frozenset("date time datetime value email address name id".split())


def param_words(param: str, noun: str) -> str:
    """A parameter in words, without the record's own noun (`contact_id` of a contact ->
    `id`); a few short names get a plain alias (`to` -> `recipient`)."""
    if param in PARAM_ALIASES:
        return PARAM_ALIASES[param]
    if "." in param or "[" in param:  # a value inside an object, by its own name (an
        named = path_names(param)
        param = named[-1] if named else param  # event's `events[0].end`: its end), and
        if len(named) > 1 and set(split_words(param)) <= _GENERIC_LEAVES:  # a generic
            param = "_".join(named[-2:])  # one with its holder's (`start.dateTime`)
    words, head = split_words(param), split_words(noun)
    if head and len(words) > len(head) and words[: len(head)] == head:
        words = words[len(head):]
    return " ".join(words) or param


def path_names(path: str) -> list[str]:
    """The names along a path, its list indexes left out (`personalizations[0].to[0].email`
    -> personalizations, to, email)."""
    return [part for part in re.split(r"[.\[\]]+", path) if part and not part.isdigit()]


def field_words(field: str) -> str:
    """`data[].email` -> `email`; `owner.id` -> `owner id`; containers are dropped."""
    parts = path_names(field)
    kept = [p for p in parts if p.lower() not in CONTAINERS] or parts[-1:]
    if not kept:
        return ""
    words = split_words(kept[-1])
    if words in (["id"], ["ids"]) and len(kept) > 1:
        words = [singularize(w) for w in split_words(kept[-2])] + words
    return " ".join(words)


def selector_words(field: str, value: Any) -> str:
    """`first name is "Bruno"`: how an item of a list is told apart."""
    return f"{' '.join(split_words(field)) or field} is {quote(value)}"


_SPOKEN = re.compile(r"(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2})(?::00)?(?:Z|\+00:?00))?")


def spoken_time(value: Any) -> str:
    """How a person says an ISO date or UTC time: `Wednesday, March 12, 2025 at 12:30 UTC`
    of `2025-03-12T12:30:00Z`, `Wednesday, March 12, 2025` of `2025-03-12`; "" for anything
    else (a time off UTC or with seconds is said as it is written)."""
    match = _SPOKEN.fullmatch(value) if isinstance(value, str) else None
    if match is None:
        return ""
    try:
        day = date.fromisoformat(match[1])
    except ValueError:
        return ""
    text = f"{day:%A}, {day:%B} {day.day}, {day.year}"
    return f"{text} at {match[2]} UTC" if match[2] else text


def stated(value: Any, text: str) -> bool:
    """Whether an instruction states a visible value: as `render_value` writes it, or a
    date or time as a person says it (`spoken_time`). The verifier and the paraphrase
    check use this, so a request may say "on Wednesday, March 12, 2025 at 12:30 UTC"."""
    spoken = spoken_time(value)
    if render_value(value) in text or bool(spoken and spoken in text):
        return True
    day, _, clock = spoken.partition(" at ")  # a span of one day: `on ... from 12:30 to
    if not clock.endswith(" UTC"):  # 13:30 UTC` states its start and its end
        return False
    hour = re.escape(clock.removesuffix(" UTC"))
    return bool(re.search(rf"{re.escape(day)} from ({hour} to \d\d:\d\d|\d\d:\d\d to "
                          rf"{hour}) UTC", text)) or _said_where(value, day, text)


def _said_where(value: str, day: str, text: str) -> bool:
    """Whether a UTC time is said as the clock time of a city of the world's (`on Monday,
    March 10, 2025 from 10:00 to 11:00 Tokyo time`: 01:00 UTC is 10:00 in Tokyo), on the
    same day (a request that gives UTC beside the local time does the agent's conversion
    for it)."""
    at = datetime.fromisoformat(value.replace("Z", "+00:00"))
    for match in re.finditer(rf"{re.escape(day)} (?:from (\d\d:\d\d) to (\d\d:\d\d)|at "
                             rf"(\d\d:\d\d)) ([A-Z][\w .'-]*?) time\b", text):
        zone = CITY_ZONES.get(match[4])
        there = at.astimezone(ZoneInfo(zone)) if zone else None
        if there is not None and there.date() == at.date() and f"{there:%H:%M}" in (
                match[1], match[2], match[3]):
            return True
    return False


def quote(value: Any) -> str:
    """A string in double quotes, anything else rendered (`render_value`)."""
    return f'"{value}"' if isinstance(value, str) else render_value(value)


def article(noun: str) -> str:
    """`an email`, `a user`, `an invoice`."""
    vowel = noun[:1] in "aeio" or (noun[:1] == "u" and not noun.startswith(("us", "un", "ur")))
    return f"{'an' if vowel else 'a'} {noun}"


def join_words(items: list[str], rng: random.Random) -> str:
    """`a, b and c` (the serial comma with the rng's odds)."""
    if len(items) < 2:
        return "".join(items)
    last = rng.choice((" and ", ", and ")) if len(items) > 2 else " and "
    return ", ".join(items[:-1]) + last + items[-1]


def cap(text: str) -> str:
    """The text with its first letter in upper case."""
    return text[:1].upper() + text[1:]


def dedupe(values: list[Any]) -> list[Any]:
    """Values in order, each once (compared as canonical JSON)."""
    seen: set[str] = set()
    out = []
    for value in values:
        key = json.dumps(value, sort_keys=True, default=str)
        if key not in seen:
            seen.add(key)
            out.append(value)
    return out


# `Avaza API Documentation` -> `Avaza`, `Twilio - Api` -> `Twilio`: the corpus's document
# titles, said as the name of the app a person uses
_TITLE_TAIL = re.compile(
    r"[\s\-–:|,]+(?:(?:REST|RESTful|Public|Open|Web|Platform|Partner|Integration)\s+)*"
    r"(?:API|APIs|Api|OpenAPI|Ap[Ii]s?\(s\))(?:\s+(?:Documentation|docs|endpoints|Reference|"
    r"Server|Suite|Specification|Explorer|services?|application|Version\s*\S+|v?\d[\w.]*))*"
    r"(?:,?\s*(?:Free|Basic|Standard|Premium|Pro)(?:\s+Tier)?)?\s*$", re.IGNORECASE)
_TITLE_HEAD = re.compile(
    r"^(?:[Tt]est the|The|Swagger|API Reference\s*[-–:]|API(?= (?![Vv]\d)[A-Z]| i[A-Z]))\s+")
# a version said after the name (`GitHub v3`, `JIRA 7.6.1`, `Shop v2.0`): no part of it
_VERSION_TAIL = re.compile(r"(?:\s+(?:[Vv]\d[\w.]*|\d+(?:\.\d+)+|[Vv]ersion\s*\S+))+$")
_TITLE_NOTE = re.compile(r"\s*(?:[\(\[][^\)\]]*[\)\]]|\s+with Swagger)$", re.IGNORECASE)
_TLDS = frozenset("com io net org co hu one me ai app dev uk de fr local info biz us".split())
_PROVIDERS = {"googleapis": "Google", "hubapi": "HubSpot", "nexmo": "Vonage",
              "cloud elements": "Cloud Elements", "ebay": "eBay", "apiz ebay": "eBay",
              "vtex": "VTEX", "sendgrid": "SendGrid"}
# what a unified API's title says alone ("Accounting API" of Apideck): no app's name
_UNNAMED = frozenset(
    "accounting crm lead leads sms ecommerce commerce conversation conversations transfers "
    "transfer ats hris pos file storage issue tracking customer support payments payment "
    "management service services platform consumer account accounts feed metadata "
    "configuration products product catalog inventory orders order invoices invoicing "
    "messaging email calendar contacts users webhooks sync for expenses banking ecosystem "
    "logistics finances registry members checks search sandbox facts rest data billing "
    "activity".split())


def app_name(service: str, title: str) -> str:
    """What a person calls a service's app: its title without the API-document words
    (`Avaza API Documentation` -> `Avaza`), led by the provider where the title alone names
    no app (`Accounting API` of apideck_com_accounting -> `Apideck Accounting`)."""
    name = _TITLE_NOTE.sub("", _TITLE_HEAD.sub("", title.strip().rstrip(".")))
    name = _TITLE_TAIL.sub("", name).strip(" -–:|,") or name
    bare = _TITLE_TAIL.sub("", _VERSION_TAIL.sub("", name).strip(" -–:|,")).strip(" -–:|,")
    if bare and bare.upper() != "API":
        name = bare
    name = re.sub(r"\s+[-–]\s+", " ", name)
    words = service.split("_")
    cut = next((i for i, w in enumerate(words) if w in _TLDS), 0)
    provider = " ".join(words[:cut])
    if provider and set(split_words(name.lower())) <= _UNNAMED:
        label = _PROVIDERS.get(provider) or provider.title()
        name = f"{label} {name}" if name else label
    return _AS_SAID.get(name, name) or title


# an app as its users call it (a user says "Square", not "Square Connect"); a unified API
# by the system it connects ("Our Apideck CRM lead", "They're in Apideck Accounting" name a
# connector as if it were the user's own system)
_AS_SAID = {"Square Connect": "Square", "SendGrid Email Activity": "SendGrid",
            "Apideck CRM": "our CRM",
            "Apideck Accounting": "our accounting system",
            "Apideck Ecommerce": "our online store",
            "Apideck Customer Support": "our support desk", "Apideck Lead": "our lead list",
            "Apideck HRIS": "our HR system", "Apideck ATS": "our hiring system",
            "Apideck Issue Tracking": "our issue tracker", "Apideck POS": "our point of sale",
            "Apideck File storage": "our file storage"}
