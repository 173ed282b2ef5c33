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


# The subject line of a message by the verb its gist opens with, where no line of its own
# fits: a price change notice is "An update from us", never "You're all set".
_LINES = (("reminding", "A reminder"), ("asking", "A quick question"),
          ("inviting", "An invitation"), ("thanking", "Thank you"), ("welcoming", "Welcome"),
          ("letting them know", "An update from us"), ("telling", "Good news"),
          ("confirming", "Confirmation"), ("apologising", "Our apologies"),
          ("announcing", "An announcement"), ("offering", "An offer for you"),
          ("sharing", "Shared with you"), ("following up", "Following up"),
          ("checking in", "Checking in"), ("handing over", "Handover"))


def reference_subject(gist: str, schema: dict[str, Any], drawn: Any, *, title: str = "",
                      meeting: str = "", line: str = "") -> Any:
    """The subject line of a workflow's email with `gist` ("Your receipt", "Invitation:
    Quarterly review"), its own `line` where it has one (`Workflow.subject`: "Returning
    your laptop"), naming the subject's `title` or the `meeting`'s where there is one;
    what was `drawn` where the schema wants no such string."""
    if not isinstance(drawn, str) or schema.get("enum") or schema.get("pattern"):
        return drawn
    line = line or _SUBJECTS.get(gist) or (
        "You're all set" if re.search(r"\bset up\b|\bcan now\b|\bready\b", gist)
        else next((line for verb, line in _LINES if gist.startswith(verb)), "A note from us"))
    named = meeting or title
    return f"{line}: {named}" if named else line


_SECOND_PERSON = {"them": "you", "their": "your", "they": "you", "theirs": "yours"}
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
    """What a message of any gist says, spoken to its reader (`spoken`), with the facts the
    message must name, the record and its day first: 'About "Q3 review" on March 3, 2025 at
    15:30 UTC: could you send us the topics you want on the agenda?' (appended, the day
    read as the topics' own: "... on the agenda on March 3?")."""
    said = spoken(gist, rng) if gist else "a note from us."
    if facts["status"]:
        said = f"{said[:-1]}: it {facts['status']}{said[-1]}"
    if facts.get("amount"):
        said = f"{said[:-1]} ({facts['amount']}){said[-1]}"
    named = facts["title"] or (facts["meeting"] if facts["meeting"] != "the meeting" else "")
    on = f" on {facts['when']}" if facts["when"] else ""
    if named and gist.startswith("about "):  # (a note about your order "Lamp")
        said = f"{said[:-1]} {named}{on}{said[-1]}"
    elif not facts["title"] and not said.endswith("?"):  # (thanks for your time on March 3)
        said = f"{said[:-1]}{': ' + named if named else ''}{on}{said[-1]}"
    elif named or on:
        said = f"about {named or 'our meeting'}{on}: " + (
            said if said.startswith("I") else said[:1].lower() + said[1:])
    if facts.get("link"):
        said += f" Here is the link: {facts['link']}"
    return said


# How a gist, said of its reader ("asking whether they are still interested"), is said to
# them: by the verb it opens with, a sentence of the message itself. Pasted in as a clause
# ("just a short note asking whether you are still interested") the message read as the
# request copied out, which an agent trained on it learns to do.
_SEND_US = ("could you send us {x}?", "could you please send us {x}?")  # (what we ask for)
_SPOKEN: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("reminding you that ", ("just a reminder that {x}.", "a friendly reminder that {x}.")),
    ("reminding you to ", ("just a reminder to {x}.", "please remember to {x}.")),
    ("reminding you of ", ("just a reminder of {x}.",)),
    ("asking you to ", ("could you please {x}?", "would you please {x}?")),
    ("asking you for ", _SEND_US),
    ("asking for ", _SEND_US),
    ("asking whether ", ("{ask}", "could you let us know whether {x}?")),
    ("letting you know ", ("{x}.", "just so you know, {x}.", "a quick heads-up: {x}.")),
    ("telling you ", ("{x}.", "good news: {x}.")),
    ("inviting you to ", ("we'd like to invite you to {x}.", "you're invited to {x}.")),
    ("thanking you for ", ("thank you for {x}.", "thanks so much for {x}.")),
    ("confirming that ", ("this is to confirm that {x}.", "I can confirm that {x}.")),
    ("confirming ", ("this confirms {x}.", "this is to confirm {x}.")),
    ("welcoming you to ", ("welcome to {x}!", "a warm welcome to {x}!")),
    ("welcoming you ", ("welcome {x}!",)),
    ("offering you ", ("we'd like to offer you {x}.", "would you like {x}?")),
    ("checking in on ", ("I wanted to check in on {x}.", "checking in: {x}?")),
    ("apologising for ", ("we're sorry for {x}.", "please accept our apologies for {x}.")),
    ("handing over ", ("I'm handing over to you {x}.",)),
    ("sharing ", ("I'm sharing {x} with you.", "here is {x}.")),
    ("announcing ", ("we're happy to announce {x}.", "we're pleased to announce {x}.")),
    ("following up on ", ("I'm following up on {x}.", "just following up on {x}.")),
    ("that ", ("{x}.",)),
    ("about ", ("a note about {x}.",)),
    ("with ", ("here is {x}.",)),
)
# A question asked by its verb first: "whether you are still interested" -> "are you
# still interested?"; a verb of no auxiliary takes "do" ("do you still need ...?").
_AUXILIARIES = frozenset("are is will would can could should have has".split())
_ADVERBS = frozenset("still already ever also".split())


def spoken(gist: str, rng: random.Random) -> str:
    """A gist as its message says it, one of a few forms drawn by `rng`: "are you still
    interested in working with us?" of "asking whether they are still interested in
    working with us", "thank you for attending our webinar. The recording will follow."
    of "thanking them for attending our webinar and saying the recording will follow"."""
    said = said_to_them(gist)
    said, _, more = said.partition(" and saying ")
    for verb, forms in _SPOKEN:
        if said.startswith(verb):
            rest = said[len(verb):].rstrip(".")
            if rest.startswith("how ") and verb == "checking in on ":
                forms = forms[:1]  # (no "checking in: how your first week went?")
            usable = [f for f in forms if f != "{ask}" or _question(rest)]
            text = rng.choice(usable).format(x=rest, ask=_question(rest))
            break
    else:
        text = said.rstrip(".") + "."
    if more:
        text += f" {more[:1].upper()}{more[1:].rstrip('.')}."
    return text


def _question(clause: str) -> str:
    """"are you still interested?" of "you are still interested"; "do you still need it?"
    of "you still need it"; "" where the clause is no "you ..." statement."""
    words = clause.split()
    if len(words) < 2 or words[0] != "you":
        return ""
    if words[1] in _AUXILIARIES:
        return " ".join([words[1], "you", *words[2:]]) + "?"
    if words[1] in _ADVERBS and len(words) > 2 and words[2] not in _AUXILIARIES:
        return " ".join(["do you", *words[1:]]) + "?"
    return ""


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
