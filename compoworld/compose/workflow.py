"""The workflow format: one definition per workflow, written as data over roles.

A workflow is what a person automates across apps ("a paid invoice -> a receipt by email",
"a ticket -> the customer's payment -> a refund -> a text"). Its definition lives in one
file, `compose/workflows/<domain>/<name>.py`, as a module-level `WORKFLOW`, and holds all
that makes its tasks read as a purpose:
- its steps, each an effect on an entity of the ontology (graph/roles.py), never a service;
- its operators (select, rank, for each, aggregate, reconcile, ensure, branch, discover):
  the reasoning a job asks for, over the records of a step;
- how a person asks for it: its purpose, the situation the request opens with (a kind of
  `situations.SITUATIONS`), the facts the person knows, the gist of its message;
- what its checks hold beyond the state diff (`checks`);
- its guards: the instances of it that would be wrong (`guards`, named in
  compose/guards.py), e.g. a receipt for an invoice nobody paid.

The engine (graph, walk, binder, rubric, verifier) reads these fields and names no
workflow; `compose/workflows/__init__.py` collects every definition.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from compoworld.graph.semtypes import split_words

READ = ("read",)
MAKE = ("create", "action")
CHANGE = ("update",)
WRITE = ("create", "action", "update")

# Business domains a workflow belongs to (what automation collections file it under).
DOMAINS = frozenset({
    "sales", "support", "billing", "commerce", "scheduling", "hr", "marketing",
    "engineering", "it", "projects", "documents", "chat", "collaboration",
})

# The reasoning operators a workflow may use, over the records of one of its steps.
OPERATORS = frozenset({
    "select",     # records meeting a business rule the user states; near-misses left alone
    "rank",       # the top or bottom k by a field
    "for_each",   # the same later steps for every selected record
    "aggregate",  # a count, sum, average or list into a record, a message or the answer
    "reconcile",  # records of one app missing from, or different in, another
    "ensure",     # create only what is missing, update what exists
    "branch",     # one of two acts by a value found in the world
    "discover",   # a rule or fact the user does not state, held in the world
})

# What a workflow's checks may hold beyond the state diff.
CHECKS = frozenset({
    "message_topic",   # its message says the word of its gist (a receipt says "receipt")
    "same_record",     # every value it carries comes from one record of its first read
    "near_misses",     # records its select leaves alone are checked unchanged
    "aggregate_value", # its aggregate is checked by value
})


# An opening of one record's request that calls it the first of many ("I'm going through
# our open invoices, starting with {s}"): the agent cannot tell whether the rest are its
# job too. A request for several says so by its rule (compose/each.py).
_BATCH = re.compile(r"\bstarting with (\{s\}|the\b)")


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a workflow: a call with one of `effects` on a record of `entity`, fed
    (from any earlier step) a value of one of the attributes `takes` (any, when empty),
    carrying every attribute of `needs`, by a tool saying one of `words` (any, if empty)."""

    effects: tuple[str, ...]
    entity: str
    takes: tuple[str, ...] = ()
    # attributes the call must carry from the earlier steps (a refund without the amount
    # it refunds is no refund), and words one of which the tool's name or collection says
    # (a receipt is sent: `send_email`, not a balance-notification setting)
    needs: tuple[str, ...] = ()
    words: frozenset[str] = frozenset()
    avoid: frozenset[str] = frozenset()  # words that make it another act (a refund's `refund`)
    home: bool = False  # in the app of the record it takes from (a refund: where it was paid)
    # attributes one at least of which the call must carry: who an invoice or a booked
    # payment is for (an invoice of 24.50 EUR to nobody is no invoice of the order's)
    party: tuple[str, ...] = ()
    # where the record goes, as a word of one of the tool's parameters: a post goes into a
    # `channel` (no text message to a phone), a file into a `folder`
    into: str = ""
    # corpus categories of the apps the step may not use: a colleague whose payslip is ready
    # is found in a directory of the company's people, not among a code host's users
    not_in: frozenset[str] = frozenset()
    # ... and the only ones it may use, where it must be one kind of app: the colleague a
    # code review is asked of is found in a code host, a tracker or the team chat, not
    # among a sales tool's users
    only_in: frozenset[str] = frozenset()
    # a message sent as the user, from their own mailbox or number: no tool that sends
    # under the company's name or shared address (a code-freeze notice to a colleague from
    # "hello@..." through Postmark, or a text to them from the brand "Redwood")
    personal: bool = False
    # how the record it makes names what the workflow is about, `{s}` the subject named in
    # full ("Follow up with {s}"): the step then links by content as well, a follow-up
    # task in a tracker that keeps no contacts carrying the person in its title, and its
    # check wants the name there (`patterns.content_takers`)
    title: str = ""
    # words of the place a record it makes is filed in, where its app keeps them in
    # projects or sections: a customer's follow-up into "Client follow-ups" of "CRM
    # migration", a colleague's into "Team follow-ups" (a sales lead's follow-up filed
    # under "Payroll migration" read as made up)
    filed: frozenset[str] = frozenset()
    # ... and words of where it is never filed while another place is: a colleague's
    # contract follow-up went into "Sales follow-ups", a customer's price-change follow-up
    # into "Payroll migration", where no place said what it was about
    unfiled: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if self.title and "{s}" not in self.title:
            raise ValueError(f"a step's title names its subject, {{s}}: {self.title!r}")


@dataclass(frozen=True, slots=True)
class Operator:
    """A reasoning operator over the records of step `step`: `kind` (one of `OPERATORS`),
    the business `rule` as the user states it ("unpaid after 30 days"), the `field` it
    ranks, sums or compares, `k` records for a rank (`top` or `bottom` by `order`), and
    the later steps it repeats or chooses between (`then`). A `select` with no field
    chooses every record the workflow's guards let it act on (`steps.EVERY_VALID`)."""

    kind: str
    step: int = 0
    rule: str = ""
    field: str = ""
    k: int = 0
    order: str = ""
    then: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in OPERATORS:
            raise ValueError(f"unknown operator {self.kind!r}; one of {sorted(OPERATORS)}")
        if self.kind == "rank" and (self.k < 1 or self.order not in ("top", "bottom")):
            raise ValueError("a rank takes k >= 1 and order 'top' or 'bottom'")


@dataclass(frozen=True, slots=True)
class Purpose:
    """What a meeting with a person is for: how the request names it (`an account
    review`: "book an account review with them"), the booking's own title ("Account
    review") and why the user asks (`{s}` the person, named in full)."""

    what: str
    title: str
    why: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Workflow:
    """A workflow: its name, its domain, what it is for, its steps, and how it is asked
    for, checked and guarded (see the module docstring)."""

    name: str
    domain: str
    purpose: str
    steps: tuple[Step, ...]
    gist: str = ""  # what a message the workflow sends says ("that their refund is on its way")
    # the words one of which its message says, where its gist says none of the shared
    # topics (`patterns.topic_of`): a laptop return says "laptop", not two words at least
    says: tuple[str, ...] = ()
    # the facts its message passes on, each of which its check wants ("April 10" of an
    # offsite invitation: a message with the wrong date passed on "offsite" alone)
    tells: tuple[str, ...] = ()
    # the subject line of its email, where the shared ones (`notes._SUBJECTS`) have none
    # for its gist (no "A note from us" asking for a laptop back)
    subject: str = ""
    # how its request opens: a kind of `situations.SITUATIONS` ("" for a plain opening;
    # a workflow of reads alone opens as a question)
    situation: str = ""
    # its own opening sentences, `{s}` the record it is about named in full, where those
    # of its situation kind do not say why this workflow is asked for
    opens: tuple[str, ...] = ()
    facts: tuple[str, ...] = ()  # attributes of its subject the person knows and states
    # the team channels its post may go to, by name (a customer's issue to "support", a
    # new order to "sales"): a post into a channel it names no other (a customer's delivery
    # problem posted to "announcements" read as made up)
    channels: tuple[str, ...] = ()
    guards: frozenset[str] = frozenset()  # instances that would be wrong (compose/guards.py)
    checks: frozenset[str] = frozenset()  # what its checks hold beyond the state diff
    operators: tuple[Operator, ...] = ()
    # what the meeting it books is for, where the workflow says (a postmortem, a quarterly
    # business review); else one by the kind of app the person is known from
    meeting: Purpose | None = None
    # on trial: composed only when a run asks for trial workflows (`--trial-workflows`) and
    # by `compoworld workflows --probe`, until a blind review of its tasks keeps it
    trial: bool = False
    # a job: the workflows it chains (`chain`), about the one record they share
    parts: tuple[str, ...] = ()
    # as a later part of a job, the words one of which its earlier part's purpose says,
    # where it follows those alone: a follow-up task checks back on a request that awaits
    # an answer ("remind", "ask", "invite"), never on a notice that asks nothing ("tell a
    # colleague their VPN access is ready") nor on a copy into the CRM
    after: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        where = f"workflow {self.name!r}"
        if not self.name.isidentifier():
            raise ValueError(f"{where}: a name is a Python identifier (snake_case)")
        if self.domain not in DOMAINS:
            raise ValueError(f"{where}: unknown domain {self.domain!r}; one of {sorted(DOMAINS)}")
        if len(self.steps) < 2 or self.steps[0].effects != READ:
            raise ValueError(f"{where}: two steps at least, the first a read")
        if any("{s}" not in text for text in self.opens):
            raise ValueError(f"{where}: every opening names its subject, {{s}}")
        if any(_BATCH.search(text) for text in self.opens):
            raise ValueError(f"{where}: an opening frames one record as the first of a batch "
                             "('starting with {s}'), which leaves the rest unsaid")
        if self.meeting is not None and (
                not self.meeting.why or any("{s}" not in text for text in self.meeting.why)
                or not any(step.entity == "event" and step.effects != READ
                           for step in self.steps)):
            raise ValueError(f"{where}: a meeting's reasons each name its subject, {{s}}, "
                             "and a step books it")
        if self.channels and not any(step.into == "channel" for step in self.steps):
            raise ValueError(f"{where}: names channels, but no step posts into one")
        if untold := [fact for fact in self.tells if fact not in self.gist]:
            raise ValueError(f"{where}: tells {untold}, which its gist does not say")
        if unknown := self.checks - CHECKS:
            raise ValueError(f"{where}: unknown checks {sorted(unknown)}")
        for operator in self.operators:
            if not 0 <= operator.step < len(self.steps) or any(
                    not 0 <= s < len(self.steps) for s in operator.then):
                raise ValueError(f"{where}: operator {operator.kind} names a step it lacks")


def chain(name: str, domain: str, purpose: str, *parts: Workflow, trial: bool = True,
          situation: str | None = None) -> Workflow:
    """A job: several workflows about one record, asked as one request. Its steps are the
    first workflow's, then each later one's after its first read (the record they share,
    so every part begins by reading the same entity); how it opens, its guards and checks
    are all of theirs; what its message says is the one part's that sends (a job sends one
    message: two would need two gists). Onboarding a customer: `chain(..., lead_contact_task,
    contact_meeting_message)` adds the contact, opens their deal, books the meeting and
    invites them."""
    first = parts[0] if parts else None
    if first is None or len(parts) < 2:
        raise ValueError(f"job {name!r}: chains two workflows at least")
    if others := [p.name for p in parts if p.steps[0].entity != first.steps[0].entity]:
        raise ValueError(f"job {name!r}: {others} begin at another record than "
                         f"{first.name!r} ({first.steps[0].entity})")
    senders = [p for p in parts if p.gist]
    if len(senders) > 1:
        raise ValueError(f"job {name!r}: {[p.name for p in senders]} each send a message; a "
                         "job sends one")
    said = senders[0] if senders else first
    return Workflow(
        name=name, domain=domain, purpose=purpose,
        steps=first.steps + tuple(step for part in parts[1:] for step in part.steps[1:]),
        gist=said.gist, says=said.says, tells=said.tells, subject=said.subject,
        situation=first.situation if situation is None else situation, opens=first.opens,
        facts=first.facts, channels=said.channels,
        guards=frozenset().union(*(p.guards for p in parts)),
        checks=frozenset().union(*(p.checks for p in parts)),
        operators=first.operators,  # (its records chosen as its story's: an NDA reminder's
        # contacts by their company, never a later follow-up's "tagged follow-up")
        meeting=next((p.meeting for p in parts if p.meeting), None),
        trial=trial, parts=tuple(n for p in parts for n in (p.parts or (p.name,))))


# Domains whose work goes with any other's: a meeting booked, a post in the team chat, a
# task in a tracker, a shared document (a new customer's kickoff meeting, a new hire's post
# in the team channel). A sales workflow goes on into no engineering or HR one: "ask Rosa
# for a code review and add her to the CRM" is two errands glued together.
ALONGSIDE = frozenset({"scheduling", "chat", "projects", "documents", "collaboration"})
JOB_PARTS = 3  # workflows one job chains at most
# Who buys from us already (`steps.BUYERS`), and the stories of someone new to us (a lead,
# a hire): a job about a newcomer asks nothing of a customer we have (a case study, a
# referral or a price change notice asked of a lead just added to the CRM).
SETTLED = frozenset("customer customers client clients buyer buyers".split())
NEWCOMERS = frozenset({"lead", "hire"})
# Situations that name an act, which goes with any story: a meeting, a deal, a task. Any
# other is a story of its own, which a later part may not bring (an invoice's "ready" note
# went on into a payment that "came in": the request said both).
ACTS = frozenset({"meeting", "deal", "task"})


def may_follow(first: Workflow, then: Workflow) -> bool:
    """Whether `then` may go on from `first` (a workflow, or a job already) as one job
    about the same record. A job sets the record up (a contact, a deal, an account, a
    task) and does at most one act with a purpose of its own (a message, a meeting:
    `_purposeful`): "add them to the CRM, open their deal, book an intro call and invite
    them". Two purposes are two errands glued together ("tell them their parking permit is
    ready and book a one-on-one"). Both parts write something; they begin at the same
    record, and read the same person (`_strangers`); `then` tells no story of its own
    (`ACTS`), and its message or meeting, where it tells none, follows no story but a
    newcomer's (a new lead is invited to a webinar; a payment that came in is told of no
    invoice "ready" to pay); they do no act twice (two new contacts), nor change what an
    earlier part made (a follow-up task, then "assigned": the make said all), nor files a
    follow-up of a meeting it booked (`Step.title`: the call is the follow-up); `then` is of
    `first`'s domain or goes with any (`ALONGSIDE`), after a part its definition follows
    (`Workflow.after`); and the job chains `JOB_PARTS` at most. The job opens as the
    first of its parts with a situation does (`job`)."""
    names = first.parts or (first.name,)
    if then.parts or then.name in names or len(names) >= JOB_PARTS or then.trial:
        return False
    if _purposeful(first) and _purposeful(then) or not _writes(first) or not _writes(then):
        return False
    if then.steps[0].entity != first.steps[0].entity or _strangers(first, then):
        return False
    if then.situation not in ("", first.situation, *ACTS):
        return False
    if _purposeful(then) and not then.situation and first.situation not in ("", *NEWCOMERS,
                                                                            *ACTS):
        return False  # (a payment that came in, then a note that the invoice is ready)
    if then.domain != first.domain and then.domain not in ALONGSIDE:
        return False
    if then.after and not set(split_words(first.purpose)) & set(then.after):
        return False  # (a follow-up of a notice that asks nothing)
    if _books(first) and any(step.title for step in then.steps[1:]):
        return False  # (a renewal call booked, then a task to follow up with them: the
        # call is the follow-up)
    acts = {(step.entity, step.effects) for step in first.steps[1:]}
    made = {step.entity for step in first.steps[1:] if "create" in step.effects}
    return not any((step.entity, step.effects) in acts
                   or (step.effects == CHANGE and step.entity in made)
                   for step in then.steps[1:])


def _strangers(first: Workflow, then: Workflow) -> bool:
    """Whether two workflows read different people at their first step: the one whom one
    avoids is whom the other reads (a prospect is no customer we have: a demo offer and a
    case study request), or one's story is of someone new and the other reads a customer
    we have."""
    one, other = first.steps[0], then.steps[0]
    if one.words and one.words <= other.avoid or other.words and other.words <= one.avoid:
        return True
    new = first.situation in NEWCOMERS or then.situation in NEWCOMERS
    return new and any(step.words and step.words <= SETTLED for step in (one, other))


def _purposeful(workflow: Workflow) -> bool:
    """Whether a workflow (or a job) does an act with a purpose of its own: it sends a
    message, or books a meeting."""
    return bool(workflow.gist) or _books(workflow)


def _books(workflow: Workflow) -> bool:
    """Whether a workflow (or a job) books a meeting."""
    return any(step.entity == "event" and step.effects != READ for step in workflow.steps[1:])


def _writes(workflow: Workflow) -> bool:
    return any(step.effects != READ for step in workflow.steps[1:])


JOINED = "_then_"  # how a job's name joins its parts' (`lead_to_contact_then_contact_deal`)


def parts_of(name: str) -> tuple[str, ...]:
    """The workflows a task's workflow name is made of: a job's parts, or the one."""
    return tuple(name.split(JOINED))


def job(first: Workflow, then: Workflow) -> Workflow:
    """The job of `first` (a workflow or a job) going on into `then` (`may_follow`): their
    `chain`, named by its parts, opening as the first of them that has a situation."""
    names = (*(first.parts or (first.name,)), then.name)
    return chain(JOINED.join(names), first.domain, f"{first.purpose}, and {then.purpose}",
                 first, then, trial=False, situation=first.situation or then.situation)
