"""Matching workflows to tools: which tool can be a workflow's step, and where a walk can
follow one.

A workflow (compose/workflow.py; the definitions live in compose/workflows/) is a purpose
and a chain of steps, each an effect on an entity of the ontology (graph/roles.py): `read
person -> create person -> create message` is lead -> CRM contact -> welcome email,
whatever the services. Here are the rules for every workflow: a tool fits a step by its
effect, its entity and its words (`fits`); an output feeds a step by the attribute its role
carries (`feeds`, `carries`); a start can continue a workflow when the graph has a second
step for it (`feasible`); and the apps a step may run in (`Apps`). No workflow is named
here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from compoworld.compose.references import is_sender, is_sender_name
from compoworld.compose.steps import COLLEAGUES, CUSTOMERS
from compoworld.compose.workflow import Step, Workflow
from compoworld.graph.depgraph import (
    CONTENT_TYPES,
    EDGE_THRESHOLD,
    DependencyGraph,
    ToolNode,
    is_link_type,
)
from compoworld.graph.roles import noun_entity, role_of
from compoworld.graph.semtypes import entity_id_type, is_entity_id, split_words
from compoworld.world.fieldsources import PERSON_TYPES

# The word a message of a gist must say, in any of its forms: a welcome that never says
# "welcome" (or a receipt never named) was not the message asked for, though a check that
# wanted only "two words at least" passed it. An invitation first: one to "a call about
# your payments" is checked for inviting, not for "payment", nor by its date alone; a
# thank-you for an order for its thanks, not for "order" ("your order was cancelled"), and
# a receipt that thanks them for their payment for "receipt".
_TOPICS = (("invite", "invited", "invitation", "inviting", "join"),
           ("welcome", "welcoming", "welcomed"), ("refund", "refunded", "refunds"),
           ("receipt", "receipts"), ("invoice", "invoices", "invoiced", "invoicing"),
           ("payment", "payments", "paid", "pay"), ("ticket", "tickets"),
           ("thank", "thanks", "thanking", "thanked", "grateful", "appreciate"),
           ("order", "orders", "ordering"), ("book", "booking", "bookings", "booked"),
           ("set", "ready", "added", "all done", "can now"))  # (a customer we have
# already is told they are all set up, that all is ready or done for them, or what they can
# now do: "You can now book with us online" says it)


_THANKS = frozenset(next(forms for forms in _TOPICS if "thank" in forms))
_THANKS_FOR = re.compile(r"\b(?:thank(?:s|ing|ed)?(?: you)?|grateful|appreciate)\b[^.!?]*\bfor\b")


def topic_of(text: str) -> list[str]:
    """The forms of the word a workflow's message must say, found in its reference text
    ("Hi Ana, welcome aboard!" -> welcome, welcoming, welcomed): the first topic any of
    whose forms the text says as a word; [] for a text with none."""
    words = set(re.findall(r"[a-z]+", text.lower()))
    if not _THANKS_FOR.search(text.lower()):
        words -= _THANKS  # (a "Thanks!" that signs a note off is no thank-you)
    forms = next((list(forms) for forms in _TOPICS if words & set(forms)), [])
    # an invitation may say so as news: "we've booked a call for you on March 10 at 13:00"
    return forms + ["booked", "scheduled"] if forms[:1] == ["invite"] else forms




# Records of the business's own side: its shop locations (a POS's merchants), its sending
# identities (a mail service's sender signatures), its admins. None is a customer or a client.
_OUR_SIDE = frozenset("merchant merchants sender senders signature signatures admin admins "
                      "operator operators".split())
# Verbs of a write that undoes, files or rates a record rather than making the step's one:
# "mark the comment as read" sends no welcome, "void the payment" books none.
_UNMAKING = frozenset("mark like unlike flag archive unarchive read unread pin unpin star cancel "
                      "void reject decline delete remove stop retry ocr recognize forward".split())




# Words of tool names that are HTTP or CRUD verbs, not nouns: `kkid_userlist_post` posts
# a user list, it is no forum post.
_VERBS = frozenset("get post put patch delete list create update add new all one find search "
                   "fetch retrieve remove set edit read query show describe view send by for "
                   "to from of with in on at".split())


def tool_entity(node: ToolNode) -> str:
    """The entity a tool works on: its collection's, else its name's (`send_sms`); a
    post or send into a channel (`slack_post_message` over `channels`) makes a message."""
    if node.resource:
        entity = noun_entity(node.resource)
        if entity == "channel" and node.effect != "read" and set(
                split_words(node.name.rsplit("__", 1)[-1])) & _POSTS:
            return "message"
        if not entity and _kanban_card(node):
            return "task"
        return entity
    words = [w for w in split_words(node.name.rsplit("__", 1)[-1]) if w not in _VERBS]
    return noun_entity("_".join(words))


def _kanban_card(node: ToolNode) -> bool:
    """Whether a tool works on the cards of a board, a parameter naming the list, board or
    column they are on (Trello's `add_card_to_list(listId, name)`): a card on a list is a
    to-do, where a payment card (Stripe's, Square's) is on no list (its name does not say:
    `list_cards` lists them). Read as nothing, no follow-up could be filed in Trello."""
    if split_words(node.resource or "")[-1:] not in (["card"], ["cards"]):
        return False
    return any(set(split_words(param)) & _ON_BOARDS for param in node.params)


# What a board's card is on: its list, its board, its column or lane.
_ON_BOARDS = frozenset("list lists board boards column columns lane lanes".split())
# Verbs of a write that puts a message into a channel.
_POSTS = frozenset("post send message reply".split())
# Account plumbing, not work anyone asks for: "resend the verification email", or SendGrid's
# check that an address is deliverable (`post_validations_email`), which sends nothing.
_PLUMBING = frozenset("verify verification validate validation validations resend confirm "
                      "confirmation password reset token "
                      "auth oauth login logout otp mfa captcha webhook callback test ping "
                      "health bulk batch sandbox simulate".split())


# Corpus categories of apps no business workflow runs through: a legislator in Open States
# is no customer, a COVID data feed no CRM.
NON_WORK_DOMAINS = frozenset({"open_data", "entertainment", "media", "text", "transport",
                              "search", "analytics", "hosting", "cloud", "monitoring", "iot",
                              "security", "machine_learning", "backend"})


# What says an app keeps a business's customers (a CRM, a shop, the books, a booking or
# support desk): its corpus category, or a word of its name or description. Google Mirror
# (Glass timeline users), an SMS gateway's contact list, Twilio's chat users, a learning
# platform's learners are no customers anyone onboards, bills or looks up.
CUSTOMER_DOMAINS = frozenset({"customer_relation", "ecommerce", "financial", "payment",
                              "marketing", "email", "support"})
_CUSTOMER_WORDS = frozenset("crm contacts leads sales shop shops shopper shoppers commerce "
                            "ecommerce e-commerce accounting invoicing invoices billing booking "
                            "bookings appointments helpdesk ticketing newsletter".split())


def keeps_customers(domain: str, title: str, description: str) -> bool:
    """Whether an app of corpus category `domain`, named `title` and described by
    `description`, is one where a business keeps its customers."""
    if set(split_words(title)) & _CONFIGURATION:
        return False  # a booking product's setup API configures the app ("OnSched Setup
        # as a customer list" reads wrong); its customers live in the consumer API
    text = f"{title} {description[:600]}"
    words = set(split_words(text)) | set(re.findall(r"[a-z]+(?:-[a-z]+)?", text.lower()))
    return domain in CUSTOMER_DOMAINS or bool(words & _CUSTOMER_WORDS)


# Words of an app's title that make it the configuration side of a product.
_CONFIGURATION = frozenset("setup admin administration configuration".split())


def for_customers(step: Step) -> bool:
    """Whether a step is on a customer (a lead, a contact, the payer of a ticket's refund)
    rather than a colleague: any person step but the hiring one's."""
    return step.entity == "person" and not step.words & COLLEAGUES


def vendor(service: str) -> str:
    """The company behind a service (`onsched_com_setup` -> `onsched`, the MCP server
    `mcp_github` -> `github`): two APIs of one vendor share their records, so a copy from
    one into the other is no task."""
    return service.removeprefix("mcp_").split("_", 1)[0]


# Corpus categories whose apps keep no calendar: a map app's "event" is a spot on a map.
NO_CALENDAR_DOMAINS = frozenset({"location"})
# Words of an app's name that make its bookings a trip's: a hotel booking is a stay, no
# appointment (Impala Hotel Booking's reservations were "confirmed" as appointments, and an
# agenda was asked for them as for a meeting).
_TRAVEL_WORDS = frozenset("hotel hotels travel flight flights airline airlines rail trip "
                          "trips".split())


def keeps_calendar(domain: str | None, title: str) -> bool:
    """Whether an app of corpus category `domain` named `title` keeps meetings and
    appointments (a calendar, a booking tool), not a map's spots or a hotel's stays."""
    return domain not in NO_CALENDAR_DOMAINS and not set(split_words(title)) & _TRAVEL_WORDS


@dataclass(frozen=True, slots=True)
class Apps:
    """The services a patterned walk may call: the work apps, and of them those that keep
    customers (for the steps on a customer) and those that keep a calendar (events)."""

    work: frozenset[str]
    customers: frozenset[str]
    calendars: frozenset[str] | None = None  # (every work app, when None)
    desks: frozenset[str] | None = None  # apps that keep tickets (every work app, when None)
    staff: frozenset[str] | None = None  # apps that keep our colleagues (every work app)
    categories: Mapping[str, str] | None = None  # each app's corpus category, where known

    def allow(self, service: str, step: Step) -> bool:
        if step.not_in and self.categories is not None \
                and self.categories.get(service) in step.not_in:
            return False  # (a payslip's colleague is no code host's user)
        if step.only_in and self.categories is not None \
                and self.categories.get(service) not in step.only_in:
            return False  # (a code reviewer is no sales tool's user)
        if for_customers(step):
            return service in self.customers
        if step.entity == "person" and self.staff is not None:
            return service in self.staff  # a colleague, read or added
        if step.entity == "event" and self.calendars is not None:
            return service in self.calendars
        if step.entity == "ticket" and self.desks is not None:
            return service in self.desks
        return service in self.work


# Corpus categories of apps whose tickets are ours to work: a helpdesk's, a CRM's, an issue
# tracker's. A network-management or cloud app's tickets are its customers' requests to its
# maker: no customer of ours opens one there, and none waits on us in it.
DESK_DOMAINS = frozenset({"support", "customer_relation", "developer_tools",
                          "project_management", "collaboration"})
_DESK_WORDS = frozenset("helpdesk help desk support ticketing tickets issue issues tracker "
                        "tracking".split())


def public_sector(service: str) -> bool:
    """Whether a service is a government's (`payments_service_gov_uk`, `va_gov_facilities`):
    a public body's payments or registers are not where a company keeps its customers,
    payments or colleagues, whatever the corpus files it under."""
    return "gov" in service.split("_")


def keeps_tickets(domain: str, title: str) -> bool:
    """Whether an app of corpus category `domain` named `title` keeps the business's own
    tickets or issues (a helpdesk, an issue tracker), rather than its users' tickets to
    the app's maker."""
    return domain in DESK_DOMAINS or bool(set(split_words(title)) & _DESK_WORDS)


def business_shares(nodes: Iterable[ToolNode]) -> dict[str, float]:
    """Per service, the share of its tools that work on a business entity (`tool_entity`):
    how much it is an app for contacts, invoices, tickets, meetings..."""
    flags: dict[str, list[bool]] = {}
    for node in nodes:
        flags.setdefault(node.service, []).append(bool(tool_entity(node)))
    return {service: sum(marks) / len(marks) for service, marks in flags.items()}


def fits(node: ToolNode, step: Step) -> bool:
    """Whether a tool can be the call of `step` (its effect and its entity)."""
    if node.effect not in step.effects:
        return False
    if step.personal and any(is_sender_name(p, t) or (is_sender(p, t) and t == "email")
                             for p, t in node.params.items()):
        return False  # (a transactional sender's mail goes out as the company)
    words = set(split_words(node.name.rsplit("__", 1)[-1])) | set(split_words(node.resource or ""))
    if _kanban_card(node):
        words.add("todo")  # (a card on a board's list is one)
    if words & _PLUMBING:
        return False
    if step.entity == "message" and node.effect != "read" and "template" in words:
        return False  # a stored template's send, for a note in the agent's own words (a
        # Mandrill `send_template_message` with no template, checked as "a template message")
    if (for_customers(step) or step.entity == "org") and words & _OUR_SIDE:
        return False  # a POS's merchant or a Postmark sender signature is no client of ours
    if for_customers(step) and words & _SECTOR_PEOPLE:
        return False  # a clinic's patient or a school's student is no customer of a company
    if step.entity == "org" and ((node.effect == "read" and _market_data(node))
                                 or set(split_words(node.service)) & _STAFF_APPS):
        return False  # a listed company's stock profile is no partner (a market-data feed's
        # ticker), nor is the employer an HR app keeps its staff under, read or made (a
        # partner "added as an HRIS company")
    if node.effect != "read" and not node.writes:
        return False  # a simulated write changes nothing to check
    if step.title and node.effect == "action" and node.resource and entity_id_type(
            node.service, node.resource) in (node.params.get(p) for p in node.required):
        return False  # a titled make is a new record: to accept, complete or move a task
        # (or upload a file to an eBay feed task) makes none, and each try at one was lost
    if step.words and not words & step.words:
        return False
    if step.into and not any(step.into in split_words(param) for param in node.params):
        return False  # a post that names no channel to go into is a text to somebody
    if words & step.avoid or (node.effect != "read" and words & _UNMAKING):
        return False
    return tool_entity(node) == step.entity


# The people of another sector than ours (a company that trades goods): a health record's
# patients, a school's students, an airline's passengers. "Its contact's home phone? You'll
# find its contact in drchrono" read a meeting's guest as a patient.
_SECTOR_PEOPLE = frozenset("patient patients student students learner learners pupil pupils "
                           "passenger passengers voter voters citizen citizens inmate inmates "
                           "donor donors".split())
# Apps of our own staff: their companies are our own employers, no partners of ours.
_STAFF_APPS = frozenset("hris hr payroll workforce".split())
# What a company record of a market-data feed holds, and no business keeps of a partner.
_MARKET = frozenset("marketcap ticker tickers exchange symbol sector".split())


def _market_data(node: ToolNode) -> bool:
    """Whether a read returns companies as a market-data feed does (their stock symbol,
    exchange and market cap: two of those at least)."""
    words = {w for path in node.outputs for w in split_words(path.rsplit(".", 1)[-1])}
    return len(words & _MARKET) >= 2


def patterns_from(node: ToolNode, workflows: Iterable[Workflow]) -> list[Workflow]:
    """The workflows of `workflows` whose first step `node` can be."""
    return [workflow for workflow in workflows if fits(node, workflow.steps[0])]


def feeds(graph: DependencyGraph, tool: str, field: str, kind: str, step: Step) -> bool:
    """Whether the value of `tool`'s output `field` (type `kind`) may feed `step`: an id of
    the same service always may (a list feeds its get), else its role's attribute must be
    one the step takes."""
    if is_entity_id(kind) or not step.takes:
        return True
    if kind in CONTENT_TYPES:  # a title feeds only a step that takes one
        return kind in step.takes
    if kind == "money" and "[]" not in field and _lists(graph.nodes[tool]):
        return False  # a list's `total` counts its records: no amount of any one of them
    role = role_of(field, kind, graph.nodes[tool].resource)
    return role is not None and role.attribute in step.takes


def _lists(node: ToolNode) -> bool:
    return any("[]" in path for path in node.outputs)


def carries(graph: DependencyGraph, step: Step, sources: Iterable[tuple[str, str, str]]) -> bool:
    """Whether the values a call took from earlier calls, as (tool, field, type), cover
    every attribute the step `needs`, or name the record itself."""
    sources = list(sources)
    if not (step.needs or step.party) or any(is_entity_id(kind) for _, _, kind in sources):
        return True  # a refund of the payment itself (by its id) refunds its amount
    got = {role.attribute for tool, field, kind in sources
           if (role := role_of(field, kind, graph.nodes[tool].resource)) is not None}
    return _covers(step, got)


def _covers(step: Step, got: set[str]) -> bool:
    """Whether attributes `got` give a step every attribute it needs and one of its party."""
    return set(step.needs) <= got and (not step.party or bool(got & set(step.party)))


def feasible(graph: DependencyGraph, start: str, pattern: Workflow,
             allow: Callable[[str, Step], bool] | None = None) -> bool:
    """Whether the graph has a second step for `pattern` from `start`: a tool fitting the
    step (in an app `allow` lets it use) that takes, along edges above the threshold,
    outputs of the start covering what the step needs (the amount and a party of a booked
    payment, or the record's id). Walks need not try the patterns a start cannot continue."""
    step = pattern.steps[1]
    node = graph.nodes[start]
    taken: dict[str, set[str]] = {}  # per fitting tool, the attributes it may take
    for field, kind in node.outputs.items():
        if not links(kind, step) or not feeds(graph, start, field, kind, step):
            continue
        role = role_of(field, kind, node.resource)
        attribute = "" if is_entity_id(kind) else (role.attribute if role else "?")
        for target, _ in graph.linked_consumers(start, field, kind):
            if fits(graph.nodes[target], step) and (
                    allow is None or allow(graph.nodes[target].service, step)):
                taken.setdefault(target, set()).add(attribute)
    if any(kind in SUBJECT_NAMES and links(kind, step) and feeds(graph, start, field, kind, step)
           for field, kind in node.outputs.items()) and any(
            allow is None or allow(graph.nodes[tool].service, step)
            for tool, _ in content_takers(graph, step)):
        return True  # a follow-up task titled by the person's name
    # a new contact or colleague is reached by the email or phone carried to it
    reach = {"email", "phone"} if step.entity == "person" and "create" in step.effects else set()
    return any("" in got or (_covers(step, got) and (not reach or bool(got & reach)))
               for got in taken.values())


def links(kind: str, step: Step | None) -> bool:
    """Whether a value of type `kind` may link a call to the next one, of `step` (None: a
    free walk): a shared interface or an id, or content (a title) the step takes."""
    return is_link_type(kind) or (step is not None and kind in CONTENT_TYPES
                                  and kind in step.takes)


def taken_by(graph: DependencyGraph, tool: str, field: str, kind: str, step: Step,
             threshold: float = EDGE_THRESHOLD) -> bool:
    """Whether some tool fitting `step` takes output `field` of `tool` along an edge
    scoring at least `threshold`, or by content: a name in a record's title (`Step.title`)."""
    return any(fits(graph.nodes[target], step)
               for target, _ in graph.linked_consumers(tool, field, kind, threshold)) \
        or (kind in SUBJECT_NAMES and bool(content_takers(graph, step)))


# What names a record's subject in full, so a title can carry it: a person's whole name,
# a company's (a first name alone, "Follow up with Ana", names nobody in particular).
SUBJECT_NAMES = frozenset({"person_name", "company"})
# The last words of a parameter that titles the record a tool makes.
_TITLES = frozenset("name title subject summary".split())


def content_takers(graph: DependencyGraph, step: Step) -> list[tuple[str, str]]:
    """(tool, parameter) of every tool fitting `step` whose parameter of type `title`
    titles the record it makes, where the step links by content (`Step.title`): a task in
    a tracker with no field for a contact takes the person in its name. [] for a step
    without a title."""
    if not step.title:
        return []
    table = graph.memo.setdefault("content_takers", {})
    if step not in table:
        table[step] = [
            (name, param) for name, node in graph.nodes.items()
            if node.effect != "read" and fits(node, step) and not _keeps_whom(node)
            for param in [title_param(node)] if param]
    return table[step]


def _keeps_whom(node: ToolNode) -> bool:
    """Whether a tool has a field for the person or company its record is about (an
    email, a name, a customer's or a contact's id): it takes them there, never in its
    title alone (a SalesLoft task "Follow up with Hugo Jensen" filed under Quinn Smith)."""
    return any(kind in PERSON_TYPES or kind == "company" or (
        is_entity_id(kind) and set(split_words(kind.split(".")[-2])) & CUSTOMERS)
        for kind in node.params.values())


def title_param(node: ToolNode) -> str | None:
    """The parameter that titles what `node` makes (`name`, `Title`, `subject`): the
    shortest such, so a task's own `name` before a `project_name` it files under."""
    titles = [p for p, kind in node.params.items() if kind == "title"
              and "." not in p and split_words(p)[-1:] and split_words(p)[-1] in _TITLES]
    return min(titles, key=lambda p: (len(split_words(p)), p)) if titles else None
