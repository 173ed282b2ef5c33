"""Roles: what a parameter or a returned field means in a small business ontology, and how
well a value of one can stand for the other (the score of a graph edge).

A role is an entity and an attribute of it: `person.email` (a contact's email, a ticket's
requester email, a message's `to`), `invoice.amount`, `event.start`, `document.url`. The
entity comes from the field's own words first (`customer_email` is a person's,
`invoice_total` an invoice's, `due_date` a time meaning "due"), else from the collection the
tool works on (`email` of a `contacts` record is a person's); the attribute from the
field's semantic type (graph/semtypes.py) and, for times and URLs, from its words: a time
is *when* something is due, starts, ends, was created..., a URL is *what* it locates (a
website, a file, an image, a profile).

`edge_score` rates a link `source field -> target parameter` of one semantic type in
[0, 1]. An edge needs the same entity or the same role (the same person's email going into
`to`, an invoice amount becoming a refund amount); name agreement counts as evidence
(`customer_email -> to`, `website -> homepage`); a coincidence of format does not (`created
-> valid_not_after`, a license URL into a readme URL). The walk follows only edges scoring
at least `depgraph.EDGE_THRESHOLD`. Pure and cached: the graph asks it for millions of pairs.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from compoworld.graph.semtypes import is_entity_id, singularize, split_words

# Nouns (singular) naming the entities of the ontology, in records' collections and fields.
ENTITY_NOUNS: dict[str, tuple[str, ...]] = {
    "person": ("contact", "customer", "lead", "member", "attendee", "person", "people",
               "candidate", "subscriber", "recipient", "patient", "student", "guest",
               "client", "requester", "reporter", "sender", "participant", "applicant",
               "passenger", "buyer", "shopper", "donor", "traveler", "traveller", "payee",
               "payer", "signer", "invitee", "cardholder", "beneficiary", "user",
               "prospect", "respondent", "volunteer"),
    # the people who do the work, not the ones it is for: a customer's email is no assignee's
    "staff": ("employee", "assignee", "staff", "worker", "teacher", "speaker", "organizer",
              "organiser", "approver", "reviewer", "manager", "salesperson", "recruiter",
              "technician"),
    "org": ("company", "organization", "organisation", "business", "vendor", "supplier",
            "merchant", "partner", "employer", "firm", "agency"),
    "invoice": ("invoice", "bill", "quote", "estimate", "receipt", "statement"),
    "payment": ("payment", "charge", "transaction", "refund", "payout", "transfer",
                "deposit", "withdrawal", "subscription", "donation"),
    # what a colleague spent for the business and claims back: no payment of a customer's
    "expense": ("expense", "reimbursement"),
    "order": ("order", "cart", "checkout", "purchase", "shipment", "delivery"),
    "product": ("product", "sku", "variant", "listing", "inventory"),
    "ticket": ("ticket", "issue", "case", "incident", "complaint", "bug"),
    "message": ("message", "email", "mail", "sms", "notification", "conversation", "chat",
                "comment", "reply", "letter", "memo", "note"),
    "event": ("event", "meeting", "appointment", "booking", "reservation", "webinar",
              "interview", "visit"),
    "document": ("document", "file", "attachment", "doc", "contract", "spreadsheet",
                 "sheet", "resume"),
    # where files go, and where messages go: addressable things, no document or message
    "folder": ("folder",),
    "channel": ("channel",),
    # engineering: code, its changes and what ships
    "repository": ("repository", "repo", "codebase"),
    "pull_request": ("pull", "pullrequest", "pull_request", "merge_request", "mergerequest"),
    "release": ("release", "deployment", "deploy"),
    # marketing: what goes out to many, and to whom
    "campaign": ("campaign", "broadcast"),
    "audience": ("audience", "segment", "mailing_list"),
    # a document sent out for signatures
    "envelope": ("envelope",),
    # a colleague's time away
    "leave": ("leave", "absence", "timeoff", "time_off", "vacation", "leave_request"),
    "place": ("place", "location", "venue", "address", "office", "branch", "warehouse",
              "store", "shop", "restaurant", "hotel"),
    "task": ("task", "todo", "project", "milestone", "deal", "opportunity"),
}
_NOUN_ENTITY = {noun: entity for entity, nouns in ENTITY_NOUNS.items() for noun in nouns}

# What a time means, from the words of its field (`due_date`, `starts_at`, `created`).
_TIME_MEANING = {
    "due": "due", "deadline": "due", "expires": "end", "expiry": "end", "expiration": "end",
    "start": "start", "starts": "start", "begin": "start", "begins": "start", "from": "start",
    "end": "end", "ends": "end", "until": "end", "to": "end", "finish": "end",
    "stop": "end", "created": "created", "creation": "created", "registered": "created",
    "joined": "created", "signup": "created", "updated": "updated", "modified": "updated",
    "changed": "updated", "birth": "birth", "birthday": "birth", "dob": "birth",
    "paid": "paid", "payment": "paid", "sent": "sent", "delivered": "sent",
    "scheduled": "start", "appointment": "start", "meeting": "start", "event": "start",
    "published": "published", "release": "published", "released": "published",
    "closed": "closed", "resolved": "closed", "completed": "closed", "cancelled": "closed",
    "valid": "validity", "not": "validity", "issued": "created", "last": "updated",
    "check": "start", "arrival": "start", "departure": "start", "checkin": "start",
    "checkout": "end",
}
# What a URL locates, from its words (`website`, `download_url`, `avatar`).
_URL_MEANING = {
    "website": "site", "homepage": "site", "home": "site", "site": "site", "web": "site",
    "domain": "site", "company": "site", "blog": "site",
    "file": "file", "download": "file", "document": "file", "attachment": "file",
    "pdf": "file", "export": "file", "media": "file", "content": "file", "upload": "file",
    "image": "image", "photo": "image", "picture": "image", "avatar": "image",
    "logo": "image", "thumbnail": "image", "icon": "image", "banner": "image",
    "profile": "profile", "linkedin": "profile", "twitter": "profile",
    "facebook": "profile", "social": "profile",
    "callback": "hook", "webhook": "hook", "hook": "hook", "notify": "hook",
    "redirect": "hook", "return": "hook", "success": "hook", "cancel": "hook",
    "license": "legal", "terms": "legal", "privacy": "legal", "tos": "legal",
    "readme": "docs", "docs": "docs", "documentation": "docs", "help": "docs",
    "repository": "code", "repo": "code", "git": "code", "source": "code",
    "video": "media", "audio": "media", "stream": "media", "recording": "media",
    "meeting": "join", "join": "join", "conference": "join",
    "payment": "pay", "checkout": "pay", "invoice": "pay", "receipt": "pay",
}
_URL_SYNONYMS = {"site": {"site"}, "file": {"file", "media"}, "image": {"image"},
                 "media": {"media", "file"}, "pay": {"pay", "file"}}
# What an amount of money is: the sum itself, or a fee, a tax, a discount, a balance...
# (a processing fee is no payment amount, a stock count no price).
_MONEY_MEANING = {
    "fee": "fee", "fees": "fee", "commission": "fee", "surcharge": "fee",
    "tax": "tax", "vat": "tax", "duty": "tax", "discount": "discount", "rebate": "discount",
    "coupon": "discount", "balance": "balance", "available": "balance", "limit": "limit",
    "budget": "limit", "tip": "tip", "shipping": "shipping",
    "freight": "shipping", "postage": "shipping", "quantity": "quantity", "qty": "quantity",
    "count": "quantity", "stock": "quantity", "units": "quantity", "rate": "rate",
    "salary": "salary", "wage": "salary", "return": "fee", "refunded": "refund",
    "refund": "refund", "adjustment": "fee", "chargeback": "refund",
}
# Attributes of a semantic type: what a value of it is about.
_ATTRIBUTE = {
    "email": "email", "phone": "phone", "person_name": "name", "first_name": "first_name",
    "last_name": "last_name", "username": "username", "company": "company", "url": "url",
    "money": "amount", "currency": "currency", "date": "time", "datetime": "time",
    "city": "city", "address": "address", "postal_code": "postal_code", "country": "country",
    "filename": "filename",
}
# Parameter names that take a person's contact value whoever the person is (`to`, `cc`).
_ADDRESSEE = frozenset("to cc bcc recipient recipients attendee attendees invitee invitees "
                       "guest guests participant participants member members".split())
# Words of a record's field that hold our own people: a booking's resource (the staff
# member or room it books), a meeting's host, a ticket's agent, a deal's owner.
_STAFF_FIELDS = frozenset("resource host agent owner".split())
_PERSONAL = frozenset("email phone name first_name last_name username".split())
# Parameter names of the sending side of a message (`from_email`, `reply_to`, `sender`).
_SENDER = frozenset("from sender reply".split())
# Attributes whose value names one thing, so a shared value is a shared entity by itself.
_IDENTIFYING = frozenset({"email", "phone", "username", "filename"})
_GENERIC = frozenset("id ids value values data item items field new old current default "
                     "primary main the a an of for is at on in by".split())
# Words that say a value's format, not what it is about: `logo_url` and `shop_url` agree
# on nothing.
_FORMAT_WORDS = frozenset("url uri link href email mail address phone number tel name date "
                          "time datetime timestamp at on code".split())


@dataclass(frozen=True, slots=True)
class Role:
    """What a field means: an entity (`person`, or "" when unknown), an attribute (`email`),
    and for times and URLs their meaning (`due`, `site`; "" when unknown)."""

    entity: str
    attribute: str
    meaning: str = ""

    def __str__(self) -> str:
        text = f"{self.entity or '?'}.{self.attribute}"
        return f"{text}:{self.meaning}" if self.meaning else text


def _words(name: str) -> tuple[str, ...]:
    parts = [p for p in name.replace("[]", ".").split(".") if p]
    return tuple(singularize(w) for part in parts for w in split_words(part))


def noun_entity(noun: str | None) -> str:
    """The entity a collection or noun names (`contacts` -> `person`), or ""."""
    if not noun:
        return ""
    words = [singularize(w) for w in split_words(noun)]
    if not words:
        return ""
    # the head noun is last: `support_tickets` are tickets, `email_templates` no emails;
    # a head of two words first (`pull_requests`, `leave_requests`, `mailing_lists`)
    pair = "_".join(words[-2:])
    return _NOUN_ENTITY.get(pair) or _NOUN_ENTITY.get(words[-1], "")


@lru_cache(maxsize=200_000)
def role_of(name: str, type_name: str, resource: str | None) -> Role | None:
    """The role of a parameter or field `name` (a path like `data[].owner.email` is read
    from its last parts) of semantic type `type_name` on a tool over `resource`; None for
    types that are no role (free text, plain JSON, entity ids)."""
    attribute = _ATTRIBUTE.get(type_name)
    if attribute is None:
        return None
    words = _words(name)
    own = [w for w in words[:-1] if w not in _GENERIC] if len(words) > 1 else []
    entity = next((_NOUN_ENTITY[w] for w in reversed(own) if w in _NOUN_ENTITY), "")
    if not entity and set(own) & _STAFF_FIELDS and attribute in _PERSONAL:
        entity = "staff"  # a booking's `resourceEmail` is the staff member it books, a
        # deal's `owner.email` our salesperson: never the customer a message goes to
    if words[:2] == ("reply", "to") and attribute not in ("time", "url", "amount", "currency"):
        entity = "staff"  # where answers to a message go is our side, never its recipient
        # (a welcome whose only address of the customer was its `reply_to_email`)
    if not entity and attribute not in ("time", "url", "amount", "currency"):
        if set(words) & _SENDER:
            entity = "staff"  # a message's `from` is us, never the customer it goes to
        elif set(words) & _ADDRESSEE:
            entity = "person"
    if not entity:
        entity = noun_entity(resource)
    if attribute in ("email", "phone", "name", "first_name", "last_name", "username") \
            and entity in ("message", "ticket", "event", "order", "invoice", "payment", "task",
                           "document", "product", "place", "expense", "pull_request",
                           "release", "envelope", "leave", "folder", "channel"):
        entity = "person"  # a ticket's email is its requester's, a message's its recipient's
    if attribute == "company":
        entity = "org"  # a company name names an organisation, whoever's field holds it
    meaning = ""
    if attribute == "time":
        meaning = next((_TIME_MEANING[w] for w in reversed(words) if w in _TIME_MEANING),
                       "")  # (its own word before its holder's: `events[0].end` ends)
    elif attribute == "url":
        meaning = next((_URL_MEANING[w] for w in reversed(words) if w in _URL_MEANING), "")
    elif attribute in ("amount", "currency"):  # a return fee's currency is a fee's too
        meaning = next((_MONEY_MEANING[w] for w in reversed(words) if w in _MONEY_MEANING),
                       "principal")
    return Role(entity, attribute, meaning)


# The last word of a field that holds what a record is called (`title`, `summary`), or
# what it says (`body`, `description`), by content type.
_CONTENT_FIELDS = {"title": frozenset("title summary subject name headline topic".split()),
                   "text": frozenset("body description text content details".split())}


def content_of(field: str, kind: str) -> bool:
    """Whether a field of content type `kind` (`title`, `text`) is what its record is
    called or says (`[].title`, `summary`, `[].body`), not the title or text of something
    in it (`[].milestone.title`, `[].assets[].name`, `[].assignee.description`)."""
    own = field.rsplit("[].", 1)[-1]  # (its own field: no milestone's title in an issue)
    words = _words(own)
    return bool(words) and words[-1] in _CONTENT_FIELDS.get(kind, ()) and "." not in own \
        and "[]" not in own and "__" not in own  # (`order__orderer__name`: a nested one)


def _name_agreement(source: str, target: str) -> bool:
    """`customer_email` and `email`, `website` and `homepage`: the names say the same."""
    left = [w for w in _words(source) if w not in _GENERIC | _FORMAT_WORDS]
    right = [w for w in _words(target) if w not in _GENERIC | _FORMAT_WORDS]
    if not left or not right:
        return False
    return left[-1] == right[-1] or bool(set(left[-2:]) & set(right[-2:]))


@lru_cache(maxsize=1_000_000)
def edge_score(source_field: str, source_resource: str | None, target_param: str,
               target_resource: str | None, type_name: str) -> float:
    """How well the value of `source_field` (on a tool over `source_resource`) fits
    `target_param` (on a tool over `target_resource`), both of semantic type `type_name`:
    1.0 for an entity id (one service's own records) or the same role named alike, down
    to 0.1 for a coincidence of format (any date into any date)."""
    if is_entity_id(type_name):
        return 1.0
    if type_name in _CONTENT_FIELDS:  # a record's title becomes another's title or
        # summary, its body another's description
        return 0.9 if content_of(source_field, type_name) and \
            content_of(target_param, type_name) else 0.0
    source = role_of(source_field, type_name, source_resource)
    target = role_of(target_param, type_name, target_resource)
    if source is None or target is None or source.attribute != target.attribute:
        return 0.0
    named = _name_agreement(source_field, target_param)
    if source.attribute in ("time", "url"):
        return _meaning_score(source, target, named)
    if source.meaning != target.meaning:  # a fee into an amount, a stock count into a price
        return 0.1
    if source.attribute in ("amount", "currency"):
        if source.entity and source.entity == target.entity:
            return 1.0
        money = {"invoice", "payment", "order", "product"}
        if {source.entity, target.entity} <= money:  # an invoice total becomes a refund
            return 0.8 if named or source.entity != "product" else 0.7
        return 0.3 if named else 0.1
    same_entity = bool(source.entity) and source.entity == target.entity
    addressee = bool(set(_words(target_param)) & _ADDRESSEE)
    if same_entity:
        if source.attribute in _IDENTIFYING or named or addressee:
            return 1.0
        return 0.8  # a person's name into a person's name field
    if source.attribute in _IDENTIFYING and (named or addressee):
        known = source.entity and target.entity  # a customer's email into `assignee_email`
        return 0.5 if known and {source.entity, target.entity} == {"person", "staff"} else 0.7
    return 0.4 if named else 0.2


def _meaning_score(source: Role, target: Role, named: bool) -> float:
    """Times and URLs link by what they mean, on the same entity: a meeting's start into an
    event's start, a company website into a homepage; `created` into `valid_not_after`, or
    one feed's update time into another API's filter, is only the same format."""
    same_entity = bool(source.entity) and source.entity == target.entity
    if source.meaning and target.meaning:
        if source.meaning != target.meaning:
            close = target.meaning in _URL_SYNONYMS.get(source.meaning, set())
            return 0.6 if close and same_entity else 0.1
        if source.meaning in ("created", "updated"):  # bookkeeping, no fact of another record
            return 0.5 if same_entity else 0.2
        if same_entity:
            return 1.0
        unknown = not source.entity or not target.entity  # a product's image is no chat's
        return 0.6 if named and unknown and source.attribute == "url" else 0.4
    if named and same_entity:
        return 0.6
    return 0.3 if named else 0.15
