"""What a plain field's name and description say its value is, beyond `vocab`'s tables.

Three readings, all for value generation only (the dependency graph types fields with
`graph.semtypes`, which these leave alone):

- `value_type(name, schema, type_name, resource)`: a plain string whose name says a
  shared type the graph leaves plain: `Tel1` a phone, `street1` an address, `timezoneIana`
  a time zone, `guests` emails, `contact` a person's name, `primaryContactNumber` a phone;
  and `industry` / `location`, which come from the record's company or place.
- `name_kind(words, schema, resource)`: the vocabulary of a field's name (the kinds of
  `kindmakers`): who did something (`createdBy`: a staff member of the cast), when
  (`welcomeEmailSent`: a past instant, `birthdate`, `ship_by`), phone extensions, tax ids,
  BICs, iCal uids, meeting links, HTML bodies, sources, providers, branches, ...
- `described_values(schema)`: the values a description lists ("must be one of director,
  executive, manager"; "Possible values are: 'external', 'internal'") or exemplifies
  ("E.g. red").
"""

from __future__ import annotations

import random
import re
from typing import Any

from compoworld.graph.semtypes import singularize, snake_case, split_words
from compoworld.world.kindmakers import custom_pair
from compoworld.world.values import conform

# --- shared types by name ------------------------------------------------------------------

_PHONE_WORDS = frozenset("tel phone telephone mobile cell fax".split())
_STREET_WORDS = frozenset("street line address addr".split())
# People a record lists (`guests`, `attendees`): their emails.
_GUEST_WORDS = frozenset("guest attendee participant invitee recipient cc bcc watcher "
                         "follower subscriber".split())
_MESSAGE_ROLES = frozenset("from sender reply".split())  # `from_address` is an email
_PARTIES = frozenset("to from sender recipient caller callee originator".split())
_PLACE_ROLES = frozenset("start end origin destination pickup dropoff return site venue "
                         "event".split())
# The name of who holds a card or an account: a person's name, never a label.
_HOLDER_NAMES = (["cardholder", "name"], ["card", "holder", "name"], ["holder", "name"],
                 ["account", "holder", "name"], ["name", "on", "card"])
# Things of a real kind, by the word that names them: a `country`'s `name` or a
# `currencyName` is one of them, never a label made up for it ("Internal Country").
REAL_KINDS = {"country": "country", "nation": "country", "city": "city", "town": "city",
              "region": "region_name", "province": "region_name", "currency": "currency",
              "language": "language"}
# Words of a thing's own name in some form (`englishName`, `long_name`, `displayName`):
# still its name, no other thing's (a `brandName` names a brand).
_NAME_FORMS = frozenset("display english native local long short full official common "
                        "international".split())
EVENT_NOUNS = frozenset("event meeting appointment booking reservation session webinar call "
                        "lesson visit shift slot interview activity".split())


def value_type(name: str, schema: dict[str, Any], type_name: str,
               resource: str | None = None) -> str:
    """The type a field's value is drawn as: `type_name`, or a shared type (or `industry`,
    `location`) its name says where the graph's type is a plain string."""
    if type_name == "string" and isinstance(schema, dict) and str(
            schema.get("format", "")).startswith("date-time"):
        return "datetime"  # Twilio's `date-time-rfc-2822`: a time, ordered like one
        # (drawn as text, accounts read as created after they were last updated)
    if type_name == "title" and split_words(name) in _HOLDER_NAMES and isinstance(
            schema, dict) and not {"enum", "const"} & set(schema):
        return "person_name"  # (the graph calls any `*_name` a title: "Spring Card")
    real = _real_kind(name, resource) if type_name in ("string", "title") and isinstance(
        schema, dict) and not {"enum", "const"} & set(schema) else None
    if real is not None:
        return real
    if type_name != "string" or not isinstance(schema, dict) or {"enum", "const",
                                                                   "format"} & set(schema):
        return type_name
    words = split_words(name)
    if not words:
        return type_name
    if set(words) & _STAMPS and _DATED.search(f"{schema.get('description', '')} "
                                              f"{schema.get('example', '')}"):
        return "datetime"  # ecwid's `registered`, "Ex: 2015-02-03 15:30:08" (drawn as text,
        # a customer read as registered after their record was last updated)
    base = words[:-1] if words[-1].isdigit() else words
    last = base[-1] if base else ""
    if words[-1].isdigit() and last in _PHONE_WORDS:
        return "phone"  # Tel1, Tel2, phone2
    if words[-1] == "1" and last in _STREET_WORDS:
        return "address"  # street1, line1, addressLine1
    if last == "number" and len(base) > 1 and base[-2] in {"contact", "sms", "whatsapp",
                                                           "landline", "callback"}:
        return "phone"  # primaryContactNumber, smsNumber
    if "timezone" in words or "tz" in words or _adjacent(words, "time", "zone"):
        return "timezone" if last not in ("offset", "id", "ids") else type_name
    if singularize(last) in _GUEST_WORDS or last == "mailbox":
        return "email"
    if words in (["reply", "to"], ["reply", "to", "email"], ["reply", "to", "address"]):
        return "email"  # where answers to a mail go
    if last in _PARTIES:  # a call's `from` is a phone, a mail's an email, as described
        text = str(schema.get("description", "")).lower()
        return "phone" if "phone" in text else "email" if "email" in text else type_name
    if "country" in base and last in ("iso", "code", "alpha"):
        return "country"  # CountryISO2
    if last == "address" and len(base) > 1 and base[-2] in _PLACE_ROLES:
        return "address"  # startAddress, pickup_address
    if words == ["delivery"]:
        return "address"
    if last in ("locality", "town") or words == ["postal", "town"]:
        return "city"  # Square's `locality`: the address's city
    if words == ["administrative", "district", "level", "1"]:
        return "region"  # Square's state or province
    if last == "address" and len(words) > 1 and words[-2] in _MESSAGE_ROLES | {"to"} and (
            words[-2] != "to" or "reply" in words):
        return "email"  # from_address, reply_to_address (a ship-to address is a place)
    if words in (["contact"], ["contact", "person"], ["author"], *_HOLDER_NAMES):
        return "person_name"
    if last in ("industry", "sector", "vertical"):
        return "industry"
    if set(words) & _TAX_WORDS and last not in _NOT_TAX_ID:
        return "tax_id"  # the company's own VAT number (`vatReg`, `taxcode`)
    if last == "location" and _noun(resource) not in EVENT_NOUNS:
        return "location"  # a meeting's location is a room or a call (`name_kind`)
    return type_name


# Records that are securities, or trades and lists of them: their `symbol` is a ticker.
SECURITY_NOUNS = frozenset("stock share security equity etf fund holding position watchlist "
                        "trade quote ticker".split())
_PERSON_WORDS = frozenset("first last full given family middle user owner holder trader "
                          "account customer".split())


def _real_kind(name: str, resource: str | None) -> str | None:
    """The real kind (`country`, `city`, `region_name`, `currency`, `language`) a field is
    the name of: its own words' (`currencyName`, `country_label`), or, for the name of the
    record itself (`name`, `englishName`), its record's (a `country` object's)."""
    words = split_words(name)
    if words[-1:] not in (["name"], ["title"], ["label"]):
        return None  # (a `country` itself is typed by the graph)
    words = [word for word in words[:-1] if word not in _NAME_FORMS]
    return REAL_KINDS.get(singularize(words[-1]) if words else _noun(resource))


# Words of a country's ISO code field with its length (`code2`, `iso3`, `alpha2`).
_COUNTRY_CODE_WORDS = frozenset({"code", "iso", "alpha"})


def _noun(resource: str | None) -> str:
    words = split_words(resource or "")
    return singularize(words[-1]) if words else ""


def _adjacent(words: list[str], first: str, then: str) -> bool:
    return any(a == first and b == then for a, b in zip(words, words[1:], strict=False))


# --- vocabulary kinds by name ------------------------------------------------------------

# `<verb>ed_by`: who did it. Words before `by` that say a person acted (not `replaced_by`,
# an ontology term, nor `sort_by`).
_DONE = frozenset("created modified updated registered verified booked approved assigned "
                  "reviewed submitted requested uploaded invited edited changed added deleted "
                  "cancelled canceled closed resolved confirmed completed signed contacted "
                  "processed sent issued prepared authorized authorised rejected accepted "
                  "archived published scheduled entered recorded managed owned handled "
                  "checked initiated performed opened imported".split())
# `<verb>_by` of something due: `ship_by`, `deliver_by`, `respond_by`.
_DUE = frozenset("ship deliver pay respond reply return complete finish arrive due "
                 "dispatch".split())
_ACTORS = {"creator": "email", "organizer": "email", "organiser": "email", "owner": "name",
           "assignee": "name", "reporter": "name", "approver": "name", "reviewer": "name",
           "host": "email", "moderator": "name"}
# What a code host keeps under `/repos/{owner}/{repo}`: their `owner` is the login of the
# account that holds the repository.
_CODE_NOUNS = frozenset("repo repository issue pull request release commit branch tag hook "
                        "comment".split())
# Words after which a string is the moment it happened (`welcomeEmailSent`, `updated`).
_PAST = frozenset("sent updated registered created modified published submitted delivered "
                  "requested completed fulfilled approved "
                  "opened signed joined uploaded changed edited visited seen accessed "
                  "lastlogin lastseen lastvisit".split())
_LAST_DONE = frozenset("login logon seen visit activity access contact contacted used".split())
# Words of a moment that has happened by now: an opening balance's `entryDate`, a bill's
# `paid_date`, a journal's `posted_at` (review: `"entryDate": "2025-06-19"` with now in March).
PAST_ONLY = frozenset("entry paid posted opened sent received submitted joined signed "
                      "registered created".split())
_AUDIT = _DONE | _PAST | PAST_ONLY | frozenset(
    "create update modify delete cancel last book".split())
_BILLED = frozenset("invoice pay payment issue billing".split())
_DATED = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
# Words of a record's stamps (`created_at`, `lastModifiedOn`, `date_updated`).
_STAMPS = frozenset("created create updated update modified modify last registered "
                    "changed edited deleted archived closed resolved cancelled canceled "
                    "completed voided refunded".split()) | PAST_ONLY
_TAX_WORDS = frozenset("tax vat gst taxcode vatreg taxid vatid taxnumber vatnumber".split())
_NOT_TAX_ID = frozenset("rate amount percent percentage total included exempt type category "
                        "class inclusive treatment status name behavior behaviour".split())
_NOTE_WORDS = frozenset("note notes comment comments remark remarks".split())
_MEETING = frozenset("conference meeting video zoom join webinar".split())
_SPORTS = frozenset("game score player stat standing season match box projection odd "
                    "league team".split())  # whose `team` is a club, no department
_NOT_DATE = frozenset("format type range field fields sort order mode pattern style key "
                      "zone offset".split())
_SINGLE = {
    "object": "object", "value": "custom_value", "val": "custom_value",
    "feedback": "sentence", "desc": "sentence",
    "annotation": "sentence", "observations": "sentence", "rel": "link_rel",
    "seniority": "seniority", "branch": "branch", "provider": "provider",
    "referer": "referrer", "referrer": "referrer", "swift": "bic", "bic": "bic",
    "restriction": "restriction", "restrictions": "restriction", "html": "html",
    "oid": "record_id", "gid": "record_id", "pid": "record_id", "uid": "record_id",
    "source": "source", "team": "team", "project": "project", "cost_center": "cost_center",
    "ean": "ean", "gtin": "ean", "upc": "ean", "shipper": "carrier", "carrier": "carrier",
    "courier": "carrier", "prefix": "prefix", "founded": "founded", "as_of": "past",
    "salutation": "salutation",
}


# Whole names (words joined by `_`) of bank, card, company and place details that have a
# shape of their own: no `"sortCode": "BAN-6904"`, `"bin": "bin-23"`, `"acn": "acn-685"`.
_NAMED = {
    **dict.fromkeys(("sort_code", "bank_sort_code"), "sort_code"),
    **dict.fromkeys(("auth_code", "authorization_code", "authorisation_code", "approval_code",
                     "auth_id_code"), "auth_code"),
    **dict.fromkeys(("bank_code", "branch_code", "branch_identifier", "bank_identifier",
                     "bsb", "bsb_number", "transit_number", "clearing_number", "bank_id"),
                    "bank_code"),
    **dict.fromkeys(("business_identifier_code", "business_identifier_codes", "swift_code",
                     "bic_code", "swift_bic", "bic_swift"), "bic"),
    **dict.fromkeys(("card_brand", "card_type", "card_network", "brand_name_card"),
                    "card_brand"),
    **dict.fromkeys(("bin", "card_bin", "iin"), "card_bin"),
    **dict.fromkeys(("pan_suffix", "last4", "last_4", "last_four", "card_last4",
                     "account_number_suffix", "last_digits", "last_4_digits"), "last4"),
    **dict.fromkeys(("gan", "gift_card_gan"), "gift_card_number"),
    **dict.fromkeys(("mcc", "merchant_category_code"), "mcc"),
    **dict.fromkeys(("abn", "abn_or_tfn", "tfn", "abn_number"), "abn"),
    **dict.fromkeys(("acn", "acn_number"), "acn"),
    "cnpj": "cnpj", "cpf": "cpf",
    **dict.fromkeys(("annual_revenue", "revenue", "yearly_revenue"), "revenue"),
    **dict.fromkeys(("number_of_employees", "employee_count", "employees", "num_employees",
                     "headcount", "company_size"), "headcount"),
    **dict.fromkeys(("sublocality", "sublocality_2", "sublocality_3", "neighbourhood",
                     "neighborhood", "district", "suburb", "complement", "quarter"),
                    "neighbourhood"),
    **dict.fromkeys(("county", "administrative_district_level_2",
                     "administrative_district_level_3"), "region_name"),
    **dict.fromkeys(("department", "division"), "team"),
    **dict.fromkeys(("counterparty", "counterparty_name", "merchant", "merchant_name",
                     "payee", "payee_name", "vendor_name"), "company_name"),
    **dict.fromkeys(("institution", "institution_name", "bank_name", "bank"), "bank_name"),
    **dict.fromkeys(("terms", "payment_terms", "terms_name"), "payment_terms"),
    **dict.fromkeys(("detail", "info", "information", "additional_info", "body_preview",
                     "preview", "snippet", "personalization", "additional_information"),
                    "sentence"),
    **dict.fromkeys(("error", "error_message", "failure_reason", "decline_reason"),
                    "error_message"),
    **dict.fromkeys(("nominal_code", "nominal_ac_code", "ac_code", "account_code",
                     "gl_code", "ledger_code", "gl_account_code", "nominal_account_code"),
                    "ledger_code"),
    # a bank account's own code in the ledger, no payment reference (`PAY-3064`)
    **dict.fromkeys(("bank_account_code", "bank_ac_code", "bank_nominal_code",
                     "bank_ledger_code", "bank_gl_code"), "bank_ledger_code"),
    **dict.fromkeys(("product", "product_name", "item_name"), "product_title"),
    **dict.fromkeys(("brand",), "brand"),
    **dict.fromkeys(("middle_name", "middlename", "middle_initial"), "middle_initial"),
    **dict.fromkeys(("suffix", "name_suffix"), "name_suffix"),
}


def name_kind(words: list[str], schema: dict[str, Any], resource: str | None = None
              ) -> str | None:
    """The vocabulary kind (`kindmakers`, or `staff_email`/`staff_name`/`staff_username`:
    a person of the cast) a string field's words call for; None when they say nothing."""
    if not words:
        return None
    last, phrase = words[-1], "_".join(words)
    noun = _noun(resource)
    if phrase in _NAMED:
        return _NAMED[phrase]
    if (noun == "country" or "country" in words) and set(words) & _COUNTRY_CODE_WORDS \
            and last in ("2", "3"):  # API2Cart's `country.code2`, `code3`: ISO codes
        return f"country_alpha{last}"  # (no "NT740" and "XZ550")
    if noun in SECURITY_NOUNS or set(words) & {"stock", "stocks", "ticker"}:
        # a stock is named by what it is: its ticker and its company, never a person or a
        # label ("Spring Stock", "Internal Symbol")
        if last in ("symbol", "symbols", "ticker", "tickers") or phrase in ("stock", "stocks"):
            return "ticker"
        if last in ("name", "title") and not set(words) & _PERSON_WORDS:
            return "company_name"
    if last == "by" and len(words) > 1:
        if words[-2] in _DONE:
            return staff_kind(schema, "email")
        return "future" if words[-2] in _DUE else None
    if last == "owner" and len(words) == 1 and noun in _CODE_NOUNS:
        return "staff_username"  # GitHub's `owner/repo`: an account's login, no "Yara Shah"
    if last in _ACTORS:
        return staff_kind(schema, _ACTORS[last])
    if "birth" in words or last in ("birthdate", "dob", "birthday"):
        return "birth"
    if last in _PAST or (words[0] == "last" and last in _LAST_DONE):
        return "past"
    if ("date" in words or "dates" in words) and last not in _NOT_DATE:
        if set(words) & _AUDIT:
            return "past"  # `date_created`, `date_updated`
        if noun in EVENT_NOUNS:
            return "event" if "time" in words else "event_day"
        return "when"
    if set(words) & _NOTE_WORDS:
        return "sentence"  # `orderComments`, `notesBefore` (no cursor)
    if last in ("ext", "extension") and (len(words) == 1 and (
            last == "ext" or set(split_words(resource or "")) & _PHONE_WORDS) or set(words) & (
            _PHONE_WORDS | {"business", "office", "work", "home"})):  # a phone number's too
        return "extension"
    if words[-1].isdigit() and words[-2:-1] and words[-2] in _STREET_WORDS:
        return "line2"  # line2, street2, addressLine2 (the first line is an address)
    if words[-1].isdigit() and "field" in words:
        return "custom_value"  # field7, custom_field1
    if last == "addition" or words in (["name", "2"], ["name", "3"]):
        return "addition"  # AddressAddition, Name2: "c/o Accounts Payable", often empty
    if phrase in ("housenumber", "house_number", "street_number", "building_number"):
        return "house_number"
    if "iban" in words or words[-2:] == ["i", "ban"]:
        return "iban"
    if set(words) & _TAX_WORDS and last not in _NOT_TAX_ID:
        return "tax_id"
    if "registration" in words and set(words) & {"company", "business", "trade", "commercial"}:
        return "company_reg"
    if "uid" in words and set(words) & {"cal", "ical", "icalendar"}:
        return "ical_uid"
    if set(words) & _MEETING and last in ("info", "link", "url", "details", "uri"):
        return "meeting_link"
    if "payment" in words and last in ("module", "provider", "gateway", "processor"):
        return "payment_provider"
    if "color" in words or "colour" in words:
        hexed = "hex" in str(schema.get("description", "")).lower() or "#" in str(
            schema.get("pattern", ""))
        return "hex_color" if hexed else "color"
    if phrase in ("external_id", "external_ref", "external_reference", "ext_id"):
        return "external_id"
    if last == "location":
        return "venue"  # a meeting's; other records' locations are places (`value_type`)
    if last in ("team", "project") and noun in _SPORTS:
        return None
    return _SINGLE.get(phrase) or _SINGLE.get(last)


# Keys that name a custom field beside its `value` (`{"name": ..., "value": ...}`).
_LABEL_KEYS = frozenset("name key label field field_name type_name title display_name "
                        "attribute property caption".split())


def pair_keys(props: dict[str, Any]) -> tuple[str | None, str] | None:
    """(label key, value key) of a custom field's object: a free `value` string beside a
    free `name`/`key`/`label` string (the label key None when there is none such)."""
    free = {key for key, sub in props.items() if isinstance(sub, dict)
            and sub.get("type", "string") == "string" and not {
                "enum", "const", "format", "pattern", "example", "examples"} & set(sub)
            and not described_values(sub) and not described_values(sub, examples=True)}
    values = [key for key in free if split_words(key) in (["value"], ["val"])]
    labels = [key for key in free if "_".join(split_words(key)) in _LABEL_KEYS]
    if len(values) != 1:
        return None
    return (labels[0] if len(labels) == 1 else None), values[0]


def moment_kind(words: list[str], resource: str | None) -> str | None:
    """The time kind of a date or datetime field, where it is no plain instant: a date of
    birth (`birth`), a record's stamp (`stamp`: created, changed, last seen; never after
    now), or a time of a meeting or booking (`event`: near now)."""
    if "birth" in words or words[-1:] in (["birthdate"], ["dob"], ["birthday"]):
        return "birth"
    if set(words) & _STAMPS:
        return "stamp"  # created, changed or last seen: never after now
    if words[-1:] == ["date"] and set(words) & _BILLED:
        return "stamp"  # an invoice's `InvoiceDate`, its `PayDate`: issued, paid (no
        # "InvoiceDate":"2025-07-22" in a world of 2025-03-03)
    noun = _noun(resource)
    return "event" if noun in EVENT_NOUNS and not set(words) & _AUDIT else None


def staff_kind(schema: dict[str, Any], default: str) -> str:
    """Which of a staff member's strings a field holds, as its description says (an
    email, a name, a user id), else `default`."""
    text = str(schema.get("description", "")).lower()
    if "email" in text or "e-mail" in text:
        return "staff_email"
    if re.search(r"\b(id|identifier|login|username|handle)\b", text):
        return "staff_username"
    if "name" in text:
        return "staff_name"
    return f"staff_{default}"


# --- values a description lists ----------------------------------------------------------

_LIST_CUE = re.compile(
    r"(?:must be one of|is one of|one of the following|possible values(?: are| include)?"
    r"|valid values(?: are)?|allowed values(?: are)?|accepted values(?: are)?"
    r"|valid \w+ are|can be(?: either)?|values are)\s*:?\s*(.*)", re.I | re.S)
_EXAMPLE_CUE = re.compile(r"(?:\be\.g\.|\bsuch as|\bfor example|\bfor instance)\s*:?,?\s*(.*)",
                          re.I | re.S)
_QUOTED = re.compile(r"['\"`]([A-Za-z0-9][\w .\-/]{0,40})['\"`]")
_SPLIT = re.compile(r",\s*(?:and\s+|or\s+)?|\s+or\s+|\s+and\s+")
_TOKEN = re.compile(r"[A-Za-z][\w\-]*")
_EXAMPLE = re.compile(r"[A-Za-z0-9][\w\-]*")


def described_values(schema: dict[str, Any], *, examples: bool = False) -> tuple[str, ...]:
    """The values a description lists for a string ("must be one of a, b, c"), or with
    `examples` those it gives as examples ("E.g. red"); () when it lists none."""
    text = schema.get("description") if isinstance(schema, dict) else None
    if not isinstance(text, str):
        return ()
    cue, token, least = (_EXAMPLE_CUE, _EXAMPLE, 1) if examples else (_LIST_CUE, _TOKEN, 2)
    found = cue.search(text)
    if found is None:
        return () if examples else _bare_codes(text)
    rest = re.split(r"\.(?:\s|$)|;|\n", found.group(1))[0]
    quoted = _QUOTED.findall(rest)
    if len(quoted) >= least:
        return tuple(dict.fromkeys(quoted))
    items = [item.strip(" .()'\"`") for item in _SPLIT.split(rest.removesuffix("etc"))]
    items = [item for item in items if item and item != "etc"]
    if least <= len(items) <= 15 and all(token.fullmatch(item) for item in items):
        return tuple(dict.fromkeys(items))
    if examples and items and token.fullmatch(items[0]):
        return (items[0],)
    return ()


_CODE = re.compile(r"[A-Z][A-Z0-9_]+")


def _bare_codes(text: str) -> tuple[str, ...]:
    """The codes of a description that is nothing but a list of them (Ecwid's
    `fulfillmentStatus`: "AWAITING_PROCESSING, PROCESSING, SHIPPED, DELIVERED")."""
    items = [item.strip() for item in text.strip().rstrip(".").split(",")]
    if len(items) >= 3 and all(_CODE.fullmatch(item) for item in items):
        return tuple(dict.fromkeys(items))
    return ()


def custom_field(rng: random.Random, out: dict[str, Any], pair: tuple[str | None, str],
                 props: dict[str, Any]) -> str:
    """Write a custom field's label and a value of it over the two free strings of `out`
    that `pair_keys` found, where drawn (`{"name": "Account tier", "value": "Gold"}`);
    the label's key (`account_tier`), for a map that holds the field under it."""
    label_key, value_key = pair
    label, value = custom_pair(rng)
    if value_key in out:
        out[value_key] = conform(value, "string", props[value_key], rng)
    if label_key is not None and label_key in out:
        text = snake_case(label) if split_words(label_key) == ["key"] else label
        out[label_key] = conform(text, "string", props[label_key], rng)
    return snake_case(label)
