"""Ask the people coming to a meeting for their agenda items."""

from compoworld.compose.steps import EVERY_VALID, NEXT_UP, send
from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name="meeting_agenda_request",
    domain="scheduling",
    purpose="ask a meeting's guests for agenda items",
    steps=(
        Step(READ, "event"),
        send("email", "phone", "name", "time"),
    ),
    gist="asking them for the topics they want on the agenda",
    subject="Agenda items for our meeting",
    says=("agenda",),
    opens=("{s} is coming up, and I'd like the agenda settled beforehand.",
           "I'm preparing the agenda for {s}."),
    guards=frozenset({"event_over"}),
    operators=(EVERY_VALID, NEXT_UP,),
)
