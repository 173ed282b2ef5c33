"""Free text that fits its record: a ticket's description tells of its subject's problem.

Text fields (`description`, `body_html`, `notes`) are drawn one by one from stock
sentences, so reviewers read a ticket "Checkout delay" described as "Can we move our call
to next Tuesday afternoon?" and an order's handling fee described as "I have shared the
latest figures with the finance team". `text_rule` rewrites such a field once the record
is drawn, from lines of the record's kind (by its noun, else by its title's words) that
name its title, subject or name where it has one. A record of no known kind keeps its
stock sentence: a message or a comment may say anything.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable
from typing import Any

from compoworld.graph.semtypes import ORG_COLLECTIONS, pluralize, split_words
from compoworld.world.fieldsources import PERSON_NOUNS, is_staff_list
from compoworld.world.vocab import field_kind
from compoworld.world.words import PRODUCT_LINES, TITLES_BY_NOUN

Rule = Callable[[dict[str, Any], dict[str, Any] | None], None]

# Lines of each kind of record; `{title}` is its title as said mid-sentence.
_LINES = {
    "meeting": ("Agenda for the {title}: go through open actions and agree next steps.",
                "{Title} with the team; notes and actions will follow.",
                "Please bring updates on your open items to the {title}.",
                "We will use the {title} to agree priorities for the coming weeks."),
    # (every ticket waits on us: a reply "we are looking into it" to a ticket "first reply
    # sent, waiting on their answer" answers a question nobody asked)
    "ticket": ("The customer wrote in about their {title} and is waiting for an update.",
               "{Title} reported by the customer; they are waiting for our first reply.",
               "Following up on the customer's {title}: they sent the order number.",
               "Escalated to second line: the customer's {title} is still unresolved."),
    "billed": ("Covers {title} as agreed with the client.",
               "{Title}, billed as per the signed proposal.",
               "Charges for {title}; see the attached breakdown."),
    "todo": ("{Title} before the end of the week.",
             "{Title}, as agreed on the last call.",
             "{Title} and let the team know when it is done."),
    "deal": ("{Title}: the client is comparing our offer with one competitor.",
             "{Title} under discussion; a decision is expected this quarter.",
             "{Title}: proposal sent, follow-up call booked."),
    "change": ("{Title}, with tests for the new behaviour.",
               "{Title}: ready for review once CI passes.",
               "{Title} as discussed in the last sprint planning."),
    "release": ("{Title}: bug fixes and performance improvements.",
                "{Title} ships the new invoice export and fixes two login issues.",
                "Notes for {title}: see the changelog for every change."),
    "fee": ("{Title} for this order.", "{Title} added to this order.",
            "{Title} charged on this order."),
    # notes of whom a person is to us: a customer's tell how they buy; a colleague's (an
    # app's own user or team member) how they work, never how they order; anyone else's
    # (a sender, a guest, a patient) only how to reach them
    "customer": ("Prefers to be contacted by email.",
                 "Met at the spring trade show; interested in a demo.",
                 "Handles purchasing for their team.",
                 "Usually orders at the start of each quarter.",
                 "Asked to be called back after 2 pm."),
    "colleague": ("On the platform team since 2022.",
                  "Prefers Slack for quick questions.",
                  "Covers the support rota on Fridays.",
                  "Owns the monthly reporting.",
                  "Part-time; not in on Wednesdays."),
    "person": ("Prefers to be contacted by email.",
               "Asked to be called back after 2 pm.",
               "Best reached in the mornings."),
    "company": ("Customer since 2019; pays on time.",
                "Key account; reviews the contract each January.",
                "Prefers invoices by email to accounts payable.",
                "Head office handles all purchasing."),
    "address": ("Deliver to reception.", "Ring the bell at the side entrance.",
                "Loading dock at the back of the building.",
                "Leave parcels at the front desk if nobody answers."),
    "message": ("Following up on {title}: details below.", "Quick update on {title}.",
                "Re {title}: thanks, I will get back to you by Friday."),
    "titled": ("Working notes for {title}.", "{Title}: next steps agreed with the team.",
               "Latest status of {title}, updated weekly."),
}
# People who buy from us: their notes are a customer's.
_CUSTOMER_NOUNS = frozenset("customer client contact lead prospect buyer consumer".split())
_PERSON_KINDS = frozenset({"customer", "colleague", "person"})
_KIND_OF_TITLES = {"event": "meeting", "invoice": "billed", "ticket": "ticket",
                   "task": "todo", "deal": "deal", "pull": "change", "release": "release",
                   "project": "titled", "section": "titled"}
# A record's kind by its noun: the nouns of `words.TITLES_BY_NOUN`, then these.
_NOUN_KINDS = {
    **{noun: _KIND_OF_TITLES[next(n for n in _KIND_OF_TITLES if TITLES_BY_NOUN[n] is table)]
       for noun, table in TITLES_BY_NOUN.items()},
    **dict.fromkeys("fee surcharge charge tax discount shipping handling".split(), "fee"),
    **dict.fromkeys(PERSON_NOUNS | {"patient", "student", "learner", "subscriber",
                                    "candidate", "people"}, "person"),
    **dict.fromkeys(_CUSTOMER_NOUNS, "customer"),
    "address": "address",
}
# Records of mail: their body follows up on their subject.
_MAIL_NOUNS = frozenset("message email mail reply post chat sms thread".split())
# Last words of a free-text field (`description`, `body_html`, `notes`).
_TEXT_WORDS = frozenset("description desc body details notes note comment comments summary "
                        "text content message memo remarks html".split())
_TITLE_WORDS = ("title", "subject", "name", "headline", "summary")
_OFFERED = frozenset({"enum", "const", "example", "examples", "default", "pattern"})


def _kind(noun: str, title: Any) -> str | None:
    """The kind of a record: by its noun (an app's own people first, then its whole noun's,
    its last word's, its first's), else by the title's words (`Weekly budget review` is a
    meeting's)."""
    words = noun.split("_")
    if is_staff_list(noun):  # an app's own `users`, `team_members`: our colleagues
        return "colleague"
    for word in (noun, words[-1], words[0]):
        if word in _NOUN_KINDS:
            return _NOUN_KINDS[word]
        if pluralize(word) in ORG_COLLECTIONS or word in ("company", "organization"):
            return "company"
    if isinstance(title, str):
        for noun_of, table in TITLES_BY_NOUN.items():
            heads, topics = table
            if any(title.endswith(" " + topic) for topic in topics) and title.split()[0] in heads:
                return _NOUN_KINDS[noun_of]
        return "message" if words[-1] in _MAIL_NOUNS else "titled"
    return None


def _is_text(key: str, schema: Any, type_name: str) -> bool:
    if not isinstance(schema, dict) or _OFFERED & set(schema):
        return False
    words = split_words(key)
    return bool(words) and words[-1] in _TEXT_WORDS and (
        type_name == "text" or field_kind(key, schema) in ("sentence", "html"))


def _said(title: str) -> str:
    """A title as said mid-sentence: `Weekly budget review` -> `weekly budget review`
    (`Q3 consulting services` keeps its capitals)."""
    return title[:1].lower() + title[1:] if title[1:2].islower() else title


def text_rule(props: dict[str, Any], types: dict[str, str], noun: str,
              product: bool = False) -> Rule | None:
    """A rule that rewrites a record's free-text fields to fit its kind and its title (a
    product's are lines of its listing, as `words.make_product` writes them)."""
    texts = [key for key in props if _is_text(key, props[key], types.get(key, ""))]
    if not texts:
        return None
    # its own title (`title`, `ProjectTitle` of a project), no other record's (`CompanyName`)
    own = set(noun.split("_")) | {"display", "full", "event", "ticket", "short"}
    titles = [key for word in _TITLE_WORDS for key in props if key not in texts
              and (words := split_words(key))[-1:] == [word]
              and (len(words) == 1 or set(words[:-1]) <= own)]
    if not titles and "summary" in {split_words(k)[-1] for k in texts}:
        titles = [k for k in texts if split_words(k)[-1] == "summary"]  # a Jira summary
        texts = [k for k in texts if k not in titles]

    def rule(out: dict[str, Any], overrides: dict[str, Any] | None) -> None:
        title = next((out[k] for k in titles if isinstance(out.get(k), str) and out[k]), None)
        kind = "product" if product and title is not None else _kind(noun, title)
        if kind is None:
            return
        name = title if title is not None and kind not in _PERSON_KINDS | {"company", "address"} \
            else " ".join(noun.split("_")).capitalize()
        for key in texts:
            value = out.get(key)
            if not isinstance(value, str) or (overrides and key in overrides) or (
                    kind == "product" and value.startswith(name)):
                continue  # (a product's own listing line stays)
            # seeded by the record itself (its own title or name, so two people differ): no
            # draw of the run's rng shifts later values
            rng = random.Random(zlib.crc32(f"{kind}|{title or name}|{key}".encode()))
            line = f"{name}. {rng.choice(PRODUCT_LINES)}" if kind == "product" else rng.choice(
                _LINES[kind]).format(title=_said(name), Title=name)
            out[key] = f"<p>{line}</p>" if value.startswith("<") else line

    return rule


def board_list_rule(props: dict[str, Any], types: dict[str, str], noun: str) -> Rule | None:
    """A board's list (a list record that names its board: Trello's `idBoard`) is named
    as a team names where its to-dos go ("Client follow-ups", "Team to-dos"), as a
    project's section is: titled like a mailing list, "Engineering List" and "Annual List"
    read as placeholders where a follow-up card was filed. The name is drawn from the one
    it replaces (no draw of the record's generator)."""
    if noun.split("_")[-1] != "list" or not any("board" in split_words(key) for key in props):
        return None
    names = [key for key, kind in types.items() if kind == "title"
             and split_words(key)[-1:] == ["name"]]
    if not names:
        return None
    heads, topics = TITLES_BY_NOUN["section"]

    def rule(out: dict[str, Any], overrides: dict[str, Any] | None) -> None:
        for key in names:
            if isinstance(out.get(key), str) and not (overrides and key in overrides):
                mark = zlib.crc32(repr(sorted(out.items(), key=str)).encode())
                out[key] = f"{heads[mark % len(heads)]} {topics[(mark >> 8) % len(topics)]}"

    return rule
