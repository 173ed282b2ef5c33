"""Ask a customer for the details we need to work on their ticket."""

from compoworld.compose.steps import BY_PRIORITY, OLDEST, send, tagged
from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name="ticket_more_info",
    domain="support",
    purpose="ask a customer for more details on their ticket",
    steps=(
        Step(READ, "ticket"),
        send("email", "phone", "name"),
    ),
    gist="asking them for more details so we can look into it",
    subject="A few more details, please",
    says=("details",),
    opens=("{s} doesn't say enough for us to reproduce the problem.",
           "We can't work on {s} without a few more details."),
    guards=frozenset({"ticket_closed"}),
    trial=True,
    operators=(tagged("urgent"), BY_PRIORITY, OLDEST),
)
