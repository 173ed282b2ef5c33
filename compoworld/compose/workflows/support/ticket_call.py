"""Book a call with the customer behind a ticket, and invite them to it."""

from compoworld.compose.steps import WHO, send
from compoworld.compose.workflow import MAKE, READ, Step, Workflow

WORKFLOW = Workflow(
    name="ticket_call",
    domain="support",
    purpose="talk a customer's ticket through on a call",
    steps=(
        Step(READ, "ticket"),
        Step(MAKE, "event", ("email", "name"), party=WHO),  # a call with who raised it
        send("email", "phone"),
    ),
    gist="inviting them to a call about their ticket",
    situation="ticket",
    opens=("{s} is easier to sort out on a call than by email.",
           "I'd like to talk {s} through with the customer on a call."),
    guards=frozenset({"ticket_closed"}),
    trial=True,
)
