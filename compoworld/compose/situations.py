"""What a workflow's request says first: the situation the user is in, why they ask.

"We're onboarding our SalesLoft contact Felix Okafor.", "A customer wants news of the order
from ann@x.com in ecwid.": the record the workflow is about, named in full, in a sentence
that says why the user asks and never how; a customer we have already is not onboarded
("Felix Okafor would like to start booking appointments with us online."). The acts
follow (compose/scenario.py).
"""

from __future__ import annotations

import random
import re

from compoworld.compose.workflow import Purpose, Workflow
from compoworld.graph.semtypes import split_words

# What the user says first: the situation the workflow answers (`Workflow.situation` names
# one), the subject `{s}` named in full. It says why, never how, and
# claims nothing the records could contradict ("just signed up" of a customer since 2024).
SITUATIONS = {
    "lead": ("We're onboarding {s}.", "{s} is new with us, and we're getting them set up.",
             "We have {s} to onboard."),
    "company": ("We're starting to work with {s}.", "{s} is becoming a business partner of ours.",
                "We've agreed to work with {s}."),
    "meeting": ("I'd like to meet {s} to talk about what we can do for them.",
                "I want to sit down with {s} and go over their account.",
                "{s} asked to meet us to discuss next steps.", "I'd like to meet {s}."),
    "ticket": ("{s} is waiting for an answer.", "A customer is waiting on {s}."),
    "order": ("A customer wants news of {s}.", "The customer is asking about {s}."),
    # an order known by its customer's email: we keep them posted ("A customer wants news
    # of the order from sofia.ferreira@... in ecwid" reads awkwardly; nor is an enquiry
    # that came in by email answered by a text; "There's news on the order" without the
    # news is a vague premise: it is a routine update, the news the agent's to find)
    "order_from": ("The customer at {email} is waiting to hear about their {noun} in {app}.",
                   "I want to keep the customer at {email} posted on their {noun} in {app}.",
                   "The customer at {email} hasn't heard from us about their {app} {noun} "
                   "in a while."),
    "bill": ("{s} is ready to be billed.", "I'd like to bill {s}."),
    "paid": ("{s} needs to be recorded properly.", "I'm closing out {s}."),
    # a receipt is sent once the money is in ("needs to be recorded properly" is no
    # reason to send one)
    "receipt": ("Payment came in for {s}.", "{s} has been paid.",
                "The customer has settled {s}."),
    "event": ("I'm organising {s}.", "{s} is coming up."),
    # an event that is over: what is done about it now ("on my list today" of a meeting
    # two weeks gone is odd: it is over)
    "event_past": ("I'm following up on {s}.", "We recently had {s}."),
    "copy": ("I keep two calendars, and {s} is only in one of them.",
             "{s} is missing from our other calendar.",
             "{s} should be in our other calendar too."),
    # a meeting put into the booking app customers book in: its slot is blocked there
    # (not "I keep two calendars": a customer-booking app is no calendar of ours)
    "copy_booking": ("{s} isn't blocked in our booking system yet, so customers could still "
                     "book that time.", "{s} needs to be blocked out in our booking system "
                     "as well."),
    "hire": ("{s} is joining our team.", "We have a new colleague: {s}."),
    "look": ("I'm looking at {s}.", "I have a question about {s}."),
    # who placed an order, looked up elsewhere (not "I have a question about the order"
    # and then a question about its customer)
    "reach": ("I need to reach the customer behind {s}.",
              "I'd like to get in touch with whoever placed {s}."),
    "reach_named": ("I need to reach {name} about their {s}.",
                    "I'd like to get in touch with {name} about their {s}."),
    "deal": ("I'd like to follow up with {s}.", "{s} is interested in working with us."),
    "problem": ("{s} got in touch about a problem.", "We heard from {s} about a problem."),
    "message": ("{s} came in and needs handling.", "We got {s}, and it needs handling."),
    "product": ("We want to sell {s} in another store too.", "{s} should reach more buyers."),
    # a product put into the books is invoiced, not sold in a store (Billingo is no
    # "another store")
    "product_books": ("We'll be invoicing customers for {s} as well.",
                      "We're starting to bill for {s}."),
    "stock": ("We're running low on {s}.", "We need more of {s}."),
    "venue": ("We want to hold an event at {s}.",),
    "doc": ("{s} needs to reach the right people.", "I'm working on {s}."),
    "task": ("{s} needs attention.", "I'm looking at {s}."),
    "": ("This is about {s}.", "I'm looking at {s}."),
}


# Someone who already buys from us (a customer of the books, of a shop, of a booking app)
# added to another app: what is new is the app, not them (a request that "onboards" or
# "welcomes aboard" a customer since 2024 makes no sense). By the kind of app they go
# into (`app_kind`).
KNOWN = {
    "booking": ("{s} would like to start booking appointments with us online.",
                "{s} wants to book their sessions with us online from now on.",
                "We'd like {s} to be able to book appointments with us online."),
    "crm": ("Sales would like to stay in touch with {s}.",
            "{s} could be interested in more of what we offer."),
    "shop": ("{s} will be ordering from us regularly.",
             "{s} is going to place orders with us from now on.",
             "We expect regular orders from {s}."),
    "payments": ("{s} will be paying us directly from now on.",
                 "We'll be taking payments from {s} directly."),
    "books": ("We'll be invoicing {s} directly from now on.",),
    "": ("{s} should be set up in our other tools as well.",
         "I'd like {s} set up everywhere they need to be."),
}
# A meeting's purpose, by the kind of app (`app_kind`) we know the person from: a lead of
# the CRM gets an intro call, a customer of the books an account review. One "meet X to
# talk about what we can do for them" for every meeting, booked as a bare email and two
# times, reads as a template.
MEETINGS = {
    "crm": (Purpose("an intro call", "Intro call",
                    ("I'd like an intro call with {s} to show them what we do.",
                     "{s} asked us for an intro call.")),
            Purpose("a product demo", "Product demo",
                    ("{s} asked for a demo of our product.",
                     "I want to give {s} a demo of what we offer.")),
            Purpose("a proposal review", "Proposal review",
                    ("We sent {s} a proposal, and they'd like to go through it with us.",
                     "I'd like to walk {s} through our proposal."))),
    "books": (Purpose("an account review", "Account review",
                      ("It's time for our yearly account review with {s}.",
                       "I want to sit down with {s} and go over their account.")),
              Purpose("a call about their invoices", "Invoice questions",
                      ("{s} has questions about their invoices and asked for a call.",
                       "I'd like to talk {s} through their latest invoices."))),
    "shop": (Purpose("a call about a bulk order", "Bulk order call",
                     ("{s} wants to talk to us about ordering in bulk.",
                      "{s} asked about a bulk order, so I'd like a call with them.")),
             Purpose("a feedback call", "Customer feedback call",
                     ("I'd like to hear from {s} how our products work for them.",
                      "{s} agreed to give us feedback on their recent orders."))),
    "booking": (Purpose("a consultation", "Consultation",
                        ("{s} asked for a consultation.",
                         "{s} would like a consultation with us.")),
                Purpose("a follow-up session", "Follow-up session",
                        ("{s} would like a follow-up session.",
                         "I'd like a follow-up session with {s}."))),
    "payments": (Purpose("a call about their payments", "Payments call",
                         ("{s} has a question about a payment and asked for a call.",
                          "I'd like to sort out a billing question with {s} on a call.")),),
    "": (Purpose("a catch-up meeting", "Catch-up",
                 ("I'd like to meet {s} to talk about what we can do for them.",
                  "{s} asked to meet us to discuss next steps.")),
         Purpose("a planning meeting", "Planning meeting",
                 ("I'd like to plan the next quarter's work with {s}.",
                  "{s} wants to plan next steps with us in a meeting."))),
}


# A new colleague's first booking: their induction, titled so that either word the request
# says ("an onboarding session", "an induction session") is in it.
INDUCTION = Purpose("an onboarding session", "Induction and onboarding",
                    ("{s} is joining our team.",))


def meeting_purpose(kind: str, rng: random.Random) -> Purpose:
    """What a meeting with a person we know from an app of `kind` is for."""
    return rng.choice(MEETINGS.get(kind, MEETINGS[""]))


# Who already buys from us: the noun of the record a workflow begins at.
_KNOWN_NOUNS = frozenset("customer customers client clients buyer buyers".split())


def known(noun: str | None) -> bool:
    """Whether a record of `noun` (`customer`, `client`) is of someone who already buys
    from us (a `person`, a `lead` or a `prospect` may be new)."""
    return bool(set(split_words(noun or "")) & _KNOWN_NOUNS)


# What a lead workflow's message says to a customer we have already: they are set up, not
# welcomed aboard (`known`); by the kind of app they went into, what that changes for them
# ("you're all set up" of a record in our books tells a customer nothing).
SET_UP = "letting them know they're all set up"
SET_UP_BY_KIND = {
    "booking": "letting them know they can now book with us online",
    "books": "letting them know their invoices will come from us directly",
    "shop": "letting them know their customer account for ordering is set up",  # (not
    "payments": "letting them know they can now pay us online",  # "We're all ready for
}  # your orders now", which is contrived, nor "pay us directly", which is vague)


def gist_for(pattern: Workflow, noun: str | None, into: str = "") -> str:
    """What `pattern`'s message says when its workflow begins at a record of `noun`: a
    lead's welcome is, to a customer we have already, a note of what the app they went
    `into` (`app_kind`; "" while not known) changes for them."""
    if pattern.situation == "lead" and "welcom" in pattern.gist and known(noun):
        return set_up(into)
    return pattern.gist


def set_up(into: str) -> str:
    """The set-up note's gist for a customer added to an app of kind `into`."""
    return SET_UP_BY_KIND.get(into, SET_UP)


def situation(pattern: Workflow, subject: str, rng: random.Random, *, past: bool = False,
              into: str = "", known_customer: bool = False,
              purpose: Purpose | None = None) -> str:
    """The opening sentence of `pattern`'s request about `subject`: by the pattern (else
    `look` for a lookup, a plain one for the rest), as it is said of a `past` event, of
    what goes `into` an app of a kind (`app_kind`: a product into the books), of a
    customer we have already, or of a meeting with the `purpose` it has, where that
    differs, never starting with a subject that must keep its lower case (`ann@x.org`)."""
    kind = pattern.situation or (
        "look" if all(s.effects == ("read",) for s in pattern.steps) else "")
    plain = SITUATIONS.get(f"{kind}_past", SITUATIONS[kind]) if past else SITUATIONS[kind]
    plain = pattern.opens or plain
    plain = SITUATIONS.get(f"{kind}_{into}", plain) if into else plain
    if kind == "meeting" and purpose is not None:
        plain = purpose.why  # (why we meet them: an intro call, an account review)
    if kind == "paid" and any(step.entity == "message" for step in pattern.steps):
        plain = SITUATIONS["receipt"]  # (a receipt goes out once the money is in)
    choices = [KNOWN.get(into or "", KNOWN[""])] if kind == "lead" and known_customer \
        else []
    if kind == "order" and (whose := re.fullmatch(r"the (.+) from (\S+@\S+) in (.+)", subject)):
        return rng.choice(SITUATIONS["order_from"]).format(noun=whose[1], email=whose[2],
                                                           app=whose[3])
    if kind == "reach" and (whose := re.fullmatch(r"(.+)'s (.+)", subject)):  # ("the
        # customer behind Amara Singh's order" is Amara Singh: say her name)
        return rng.choice(SITUATIONS["reach_named"]).format(name=whose[1], s=whose[2])
    for forms in [*choices, plain]:
        if subject[:1].islower() and not subject.startswith(("the ", "our ")):
            forms = tuple(f for f in forms if not f.startswith("{s}"))
        if not all(word[:1].isupper() for word in subject.split()):
            forms = tuple(f for f in forms if "{s}'s" not in f) or forms  # ("the customer
            # with the email address ann@x.org's contract" is no possessive: a name's is)
        if forms:
            return rng.choice(forms).format(s=subject)
    return rng.choice(plain).format(s=subject)


# What kind of app a service is, by the words of its name first, then its corpus category.
_KIND_BY_WORDS = (
    ("books", ("accounting", "books", "billing", "invoice", "invoicing", "ledger")),
    ("crm", ("crm", "sales", "salesloft", "pipedrive", "hubspot")),
    ("booking", ("booking", "sched", "onsched", "appointment", "calendar")),
    ("shop", ("shop", "store", "commerce", "billbee", "orders")),
)
_KIND_BY_DOMAIN = {"financial": "books", "payment": "payments", "ecommerce": "shop",
                   "customer_relation": "crm", "marketing": "marketing",
                   "support": "support"}


def app_kind(app: str, domain: str | None) -> str:
    """`books`, `crm`, `booking`, `shop`, `payments`, `marketing`, `support`, or ""."""
    lowered = app.lower()
    for kind, words in _KIND_BY_WORDS:
        if any(word in lowered for word in words):
            return kind
    return _KIND_BY_DOMAIN.get(domain or "", "")


# Why a person or a company goes into an app of a kind, said after the act ("add them as a
# customer in Codat Accounting so we can invoice them"): a reviewer asked why a new
# customer of the books also needs one in a booking system.
_WHY = {
    "books": ("so we can invoice them", "so we can bill them"),
    "crm": ("so sales can follow up with them",),
    "booking": ("so they can book time with us", "so they can book appointments with us"),
    "shop": ("so their orders are filed under them", "so we can handle their orders"),
    "payments": ("so they can pay us online",),
    "marketing": ("so they hear from us",),
    "support": ("so we can help them when they write in",),
}
_SUPPLIERS = frozenset("supplier suppliers vendor vendors".split())
_WHY_SUPPLIER = ("so we can book their bills", "so we can pay their invoices")


def why_add(app: str, domain: str | None, rng: random.Random, noun: str = "") -> str:
    """`so we can invoice them`: why a person or company is added to `app` (of corpus
    category `domain`) as `noun` (a supplier bills us: "so we can pay their invoices");
    "" where nothing says."""
    if set(noun.split()) & _SUPPLIERS:
        return rng.choice(_WHY_SUPPLIER)
    reasons = _WHY.get(app_kind(app, domain))
    return rng.choice(reasons) if reasons else ""
