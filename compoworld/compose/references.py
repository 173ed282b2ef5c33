"""How a goal instruction refers to people, records and the text the agent writes itself.

goal.py writes the request; this module holds the words it uses to point at things:

- `role_of_field`: the person a field names (`reporter_email` -> the reporter's email);
- `introduce`: a person found through a record, said as a fact of its own ("The issue
  titled "Slow search" in Issue Tracker was reported by a customer.") so that later
  mentions are short ("that customer", "them") instead of a nested chain;
- `free_note`: what a message the agent writes itself is about ("a short message of your
  own saying that their refund is on its way");
- `item_head`: which list item a result path is in, so values of one record are grouped.
"""

from __future__ import annotations

from compoworld.graph.semtypes import split_words

PERSON_NOUNS = {"contact", "customer", "user", "employee", "member", "person", "lead",
                "attendee", "candidate", "client", "recipient", "author", "subscriber",
                "agent", "patient", "student", "player", "participant", "guest", "owner"}
_ROLE_ALIASES = {"from": "sender", "to": "recipient", "cc": "copied person"}
# How a record names its person, said as a fact: `the issue ... was reported by a customer`.
_PASSIVE = {"reporter": ("was reported by", "customer"), "payee": ("was paid to", "customer"),
            "customer": ("belongs to", "customer"), "recipient": ("went to", "person"),
            "sender": ("came from", "person"), "assignee": ("is assigned to", "colleague"),
            "owner": ("belongs to", "colleague"), "organizer": ("is organized by", "person"),
            "author": ("was written by", "person"), "creator": ("was created by", "colleague"),
            "requester": ("was requested by", "customer"), "buyer": ("was bought by",
                                                                     "customer")}
_KINDS = {"email": {"email", "mail", "address", "login", "emails"},
          "phone": {"phone", "telephone", "mobile", "tel", "number", "cell", "fax"}}
_ON = {"comment", "note", "reply", "review", "reaction", "label", "tag", "attachment", "vote"}
_FIELD_ALIASES = {"created at": "creation time", "created": "creation time",
                  "updated at": "last update time", "modified at": "last change time",
                  "sent at": "time it was sent", "phone": "phone number"}


def role_of_field(field: str) -> tuple[str, str] | None:
    """`organizer email` -> (`organizer`, `email`), `from email` -> (`sender`, `email`),
    `to` (an email list) -> (`recipient`, `email`); None for a field of no person."""
    words = field.split()
    if words in (["to"], ["from"], ["cc"]):
        return _ROLE_ALIASES[words[0]], "email"
    if len(words) == 2 and words[1] in ("email", "phone") and words[0] not in ("id", "name"):
        return _ROLE_ALIASES.get(words[0], words[0]), words[1]
    return None


def introduce(role: str, record: str) -> tuple[str, str] | None:
    """(`The issue ... was reported by a customer.`, `customer`): a person as a fact of the
    record that names them, and the noun later mentions use; None for a role with no
    plain way to say it."""
    said = _PASSIVE.get(role)
    if said is None:
        return None
    verb, noun = said
    return f"{record[:1].upper()}{record[1:]} {verb} a {noun}.", noun


def free_note(gist: str, noun: str) -> str:
    """`a short message of your own saying that their refund is on its way`: the text the
    agent writes, by what it says, never by words it must use."""
    kind = "note" if noun.split()[-1] in _ON else "message"
    if not gist:
        return f"a short {kind} of your own about it"
    return f"a short {kind} of your own {'saying ' if gist.startswith('that ') else ''}{gist}"


def item_head(path: str) -> str:
    """`data[2]` of `data[2].email`: the list item (or, with no list, the record) a value of
    a result sits in."""
    return path[: path.rfind("]") + 1]


def kind_words(field: str, kind: str) -> str:
    """`shared with` of type email -> `shared with email`: a field that does not say what it
    holds gets the kind added."""
    if kind in _KINDS and not _KINDS[kind] & set(field.split()):
        return f"{field} {kind}"
    return field


def messaging(noun: str, title: str) -> str:
    """A message of an email or SMS service is `an email` / `a text message`."""
    if noun != "message":
        return noun
    words = set(split_words(title))
    if words & {"email", "mail", "gmail", "inbox"}:
        return "email"
    return "text message" if words & {"sms", "text", "texting"} else noun


def end(sentence: str) -> str:
    """No second full stop after a quoted value that ends its own sentence."""
    for mark in ('."', '?"', '!"'):
        if sentence.endswith(mark + ".") or sentence.endswith(mark + "?"):
            return sentence[:-1]
    return sentence


def near(noun: str) -> str:
    """`on` the issue a comment is about, `in` the channel a message goes to."""
    return "on" if noun.split()[-1] in _ON else "in"


def say(field: str) -> str:
    """A field as a person says it: `created at` -> `creation time`."""
    return _FIELD_ALIASES.get(field, field)
