"""The reference's own message text: what a person writes when a workflow sends a message.

"Hi Hugo, welcome aboard! We're glad to have you with us." The request asks for a message
by its gist ("welcoming them aboard", `Workflow.gist`) and the agent writes its
own; the gold call needs a text too, and it is what SFT trains on. Every gold message used
to read "Hello X! A quick note welcoming you aboard.", one template with names swapped, so
each gist has a few ways of being said, picked by the walk's seed, and any gist a generic
one. A text names what the check asks it to name: the subject's title
("Login delay"), the meeting and its day, the order's status, and the word of its topic
(`patterns.topic_of`: a welcome says "welcome").
"""

from __future__ import annotations

import random
import re
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from compoworld.compose.references import before_today, day_forms

# What a message of a gist says, in the words people use. Placeholders: {title} (the
# subject's name, quoted), {meeting} (`"Quarterly review"` or `the meeting`), {when} (its
# day and time), {status} (where an order stands). A form is used only when every fact
# the message must name has its placeholder in it.
_SAYINGS: dict[str, tuple[str, ...]] = {
    "welcoming them aboard": (
        "welcome aboard! We're glad to have you with us.",
        "a warm welcome from all of us. Let us know if there is anything you need.",
        "welcome! It's great to be working with you.",
    ),
    "letting them know they're all set up": (  # (a customer we have already: no welcome)
        "you're all set up on our side. Let us know if there is anything you need.",
        "just a note to say everything is set up for you now.",
        "you're all set! Reach out any time if you need anything.",
    ),
    "letting them know they can now book with us online": (  # ("you can now
        # book online" with no link says nowhere to book)
        "you can now book your appointments with us online at {link}.",
        "just a note to say you can book time with us online from now on: {link}",
        "you can now book your appointments with us online.",
    ),
    "letting them know their invoices will come from us directly": (
        "from now on your invoices will come from us directly.",
        "just a note that we'll be invoicing you directly from now on.",
    ),
    "letting them know their customer account for ordering is set up": (
        "your customer account with us is set up, so your next order will go through faster.",
        "we've set up a customer account for you, so ordering from us is quicker from now on.",
    ),
    "letting them know they can now pay us online": (
        "you can now pay us online at {link}.",
        "just a note that you can make your payments to us online from now on, at {link}",
        "you can now pay us online.",
        "just a note that you can make your payments to us online from now on.",
    ),
    "inviting them to the meeting": (
        "we'd like to invite you to {meeting} on {when}.",
        "you're invited to {meeting} on {when}. We look forward to seeing you.",
        "could you join us for {meeting} on {when}?",
    ),
    "with an update on their order": (
        "an update on your order {title}: it {status}.",
        "your order {title} {status}.",
        "a quick update: your order {title} {status}.",
        "an update on your order: it {status}.",
        "your order {status}.",
    ),
    "about the event": (
        "a note about {meeting} on {when}.",
        "just a heads-up about {meeting} on {when}.",
    ),
    "about the event (over)": (
        "thanks for joining {meeting} on {when}.",
        "a quick follow-up on {meeting} on {when}.",
    ),
    "reminding them of the event": (
        "a reminder that {meeting} is on {when}.",
        "just a reminder: {meeting} takes place on {when}.",
    ),
    "that their refund is on its way": (
        "your refund is on its way.",
        "we've issued your refund, and it is on its way to you.",
    ),
    "letting them know we are looking into it": (  # (no "ticket": the request never
        "thanks for getting in touch about {title}. We are looking into it.",  # asks it)
        "we're looking into {title} now and will get back to you soon.",
    ),
    # a receipt says what was paid ("Here is your receipt." with no amount is hollow)
    "with their receipt": (  # (not 'just a short note about "Blue Harbor", with
        # your receipt' where the request named the invoice: said as a receipt for it)
        "thank you for your payment of {amount} for {title}. Here is your receipt.",
        "here is your receipt for {title}: we received {amount}. Thank you!",
        "thank you for your payment for {title}. Here is your receipt.",
        "thank you for your payment of {amount}. Here is your receipt.",
        "here is the receipt for your payment of {amount}. Thank you!",
        "thank you for your payment. Here is your receipt.",
    ),
    "confirming we received the payment": (
        "we've received your payment of {amount} for {title}, thank you.",
        "we've received your payment for {title}, thank you.",
        "we've received your payment of {amount}, thank you.",
        "this confirms that we received your payment of {amount}. Thank you!",
        "we've received your payment, thank you.",
    ),
    "that their invoice is ready": (
        "your invoice is ready.",
        "your invoice is ready for you to review.",
    ),
    "that we opened a ticket for them": (
        "we've opened a ticket for your request and will be in touch soon.",
        "we opened a ticket for you; we'll follow up as soon as we can.",
    ),
    "following up on the deal": (
        "following up on the deal we discussed: is there anything else you need from us?",
        "I wanted to follow up on the deal. Happy to answer any questions.",
    ),
}
# An email's subject line by its gist (an email sent with no subject reads as spam).
_SUBJECTS = {
    "welcoming them aboard": "Welcome aboard", "inviting them to the meeting":
    "Meeting invitation",
    "with their receipt": "Your receipt", "confirming we received the payment":
    "Payment received", "with an update on their order": "An update on your order",
    "letting them know we are looking into it": "We're looking into it",
    "that their refund is on its way": "Your refund", "that their invoice is ready":
    "Your invoice", "about the event": "About our meeting",
    "reminding them of the event": "A reminder",
}


def reference_subject(gist: str, schema: dict[str, Any], drawn: Any, *, title: str = "",
                      meeting: str = "", line: str = "") -> Any:
    """The subject line of a workflow's email with `gist` ("Your receipt", "Invitation:
    Quarterly review"), its own `line` where it has one (`Workflow.subject`: "Returning
    your laptop"), naming the subject's `title` or the `meeting`'s where there is one;
    what was `drawn` where the schema wants no such string."""
    if not isinstance(drawn, str) or schema.get("enum") or schema.get("pattern"):
        return drawn
    line = line or _SUBJECTS.get(gist) or (
        "You're all set" if gist.startswith("letting them know") else "A note from us")
    named = meeting or title
    return f"{line}: {named}" if named else line


_SECOND_PERSON = {"them": "you", "their": "your", "they": "you", "theirs": "yours"}
_GENERIC = ("a quick note {said}.", "just a short note {said}.")
_GREETINGS = ("Hello {name}!", "Hi {name},", "Dear {name},", "{name},")
_NAMELESS = ("Hello!", "Hi there,", "Hello,")
_CLOSINGS = ("", "", " Best regards.", " Thanks!", " Let us know if you have any questions.")
_SIGN_OFFS = ("", " Best regards.", " Thanks!")
# a body that already invites questions takes no second invitation (no "Let us know
# if there is anything you need. Let us know if you have any questions.")
_ASKS = re.compile(r"let us know|reach out|any questions|\?$", re.IGNORECASE)


def reference_note(gist: str, schema: dict[str, Any], drawn: Any, rng: random.Random, *,
                   name: str = "", title: str = "", event: tuple[str, str] = ("", ""),
                   status: str = "", amount: str = "", purpose: str = "",
                   local: tuple[str, str] | None = None, link: str = "") -> Any:
    """The gold text of a workflow's message with `gist` to the person called `name`,
    naming the subject's `title`, the `event` (its name and start) it invites to or recalls
    (or what the meeting is for, its `purpose`: "an account review"), at its time where the
    reader is (`local`: their time zone and city), the order's `status` and the `amount` a
    receipt is for ("306.12 USD") and the `link` of our page it points to (where they
    book or pay); what was `drawn` where the schema wants no such string."""
    if not isinstance(drawn, str):
        return drawn
    named, start = event
    meeting = f'"{named}"' if named else said_to_them(purpose) if purpose else "the meeting"
    facts = {"title": f'"{title}"' if title else "", "meeting": meeting,
             "when": when(start, local), "status": status_news(status), "amount": amount,
             "link": link}
    needed = [key for key in ("title", "when", "status", "amount", "link") if facts[key]]
    # (no heads-up about a meeting already gone: "on February 17" when now is March 3)
    sayings = _SAYINGS.get(f"{gist} (over)" if before_today(start) else gist, ())
    forms = [f for f in sayings if all("{" + k + "}" in f for k in needed)
             and all(facts[k] for k in re.findall(r"\{(\w+)\}", f))]
    body = rng.choice(forms).format(**facts) if forms else _generic(gist, facts, rng)
    greeting = rng.choice(_GREETINGS if name else _NAMELESS).format(name=name)
    opening = body[:1].upper() + body[1:] if greeting.endswith("!") else body
    closings = _CLOSINGS if not _ASKS.search(body) else _SIGN_OFFS  # (one "let us know")
    if re.search(r"\bthank(s| you)\b", body, re.I):  # (one thanks: "Thank you! Thanks!")
        closings = tuple(c for c in closings if "Thanks" not in c)
    text = f"{greeting} {opening}{rng.choice(closings)}"
    limit = schema.get("maxLength") if isinstance(schema, dict) else None
    if schema.get("enum") or schema.get("pattern") or (isinstance(limit, int)
                                                        and len(text) > limit):
        return drawn
    return text


def _generic(gist: str, facts: dict[str, str], rng: random.Random) -> str:
    """`a quick note about "Login delay", sharing the document`: any gist, with the facts
    the message must name."""
    said = said_to_them(gist) if gist else "about this"
    about = f"about {facts['title']}, " if facts["title"] else ""
    if facts["when"] or facts["meeting"] != "the meeting":
        said += (f": {facts['meeting']}" if facts["meeting"] != "the meeting" else "") + (
            f" on {facts['when']}" if facts["when"] else "")
    if facts["status"]:
        said += f": it {facts['status']}"
    if facts.get("amount"):
        said += f" for {facts['amount']}"
    if facts.get("link"):
        said += f": {facts['link']}"
    return rng.choice(_GENERIC).format(said=about + said)


# Where an order stands, as news to its customer: "has shipped", not "is now marked SHIPPED"
# ("your order is now RETURNED" reads as a database's, not a person's).
_NEWS = {"shipped": "has shipped", "delivered": "has been delivered",
         "returned": "has been returned", "cancelled": "has been cancelled",
         "canceled": "has been canceled", "refunded": "has been refunded",
         "fulfilled": "has been fulfilled", "completed": "is completed",
         "complete": "is complete", "paid": "is paid", "processing": "is now in processing",
         "pending": "is pending", "confirmed": "is confirmed", "dispatched": "has been dispatched",
         "accepted": "has been accepted", "approved": "has been approved",
         "packed": "has been packed", "ready": "is ready", "open": "is open",
         "closed": "is closed", "new": "has been received", "received": "has been received"}


def status_news(status: str) -> str:
    """"has been returned" of `RETURNED`: an order's status as its customer is told it, the
    status word kept (the check wants it said); "is now awaitingPayment" where no phrase
    fits; "" for none."""
    if not status:
        return ""
    word = status.lower() if status.isupper() or status.istitle() else status
    return _NEWS.get(word) or f"is now {word}"


def said_to_them(gist: str) -> str:
    """A gist as the message says it to its reader: "welcoming you aboard"."""
    return " ".join(_SECOND_PERSON.get(word, word) for word in gist.split())


def when(value: str, local: tuple[str, str] | None = None) -> str:
    """`December 5, 2026 at 10:00 UTC` of `2026-12-05T10:00:00Z` (`December 5, 2026` of a
    date); `December 5, 2026 at 19:00 Tokyo time` for a reader `local` to (Asia/Tokyo,
    Tokyo), where that is the same day; "" for no ISO date."""
    forms = day_forms(value)
    if not forms:
        return ""
    text = f"{forms[1]}, {value[:4]}"
    clock = re.match(r"\d{4}-\d{2}-\d{2}[T ](\d{2}:\d{2})", value)
    utc = " UTC" if value.endswith(("Z", "+00:00")) else ""
    theirs = local_clock(value, local[0]) if local and clock and utc else ""
    if theirs:
        return f"{text} at {theirs} {local[1]} time"
    return f"{text} at {clock[1]}{utc}" if clock else text


def local_clock(value: str, zone: str) -> str:
    """`19:00`: the clock time a UTC timestamp is in `zone`, where that is the same day
    (a date said beside it stays true); "" otherwise."""
    try:
        at = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return ""
    there = at.astimezone(ZoneInfo(zone))
    return f"{there:%H:%M}" if there.date() == at.date() else ""
