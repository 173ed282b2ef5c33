"""Tell a client their appointment has to be moved."""

from compoworld.compose.steps import APPOINTMENTS, send
from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name="booking_reschedule",
    domain="scheduling",
    purpose="tell a client their appointment has to move",
    steps=(
        Step(READ, "event", words=APPOINTMENTS),
        send("email", "phone", "name", "time"),
    ),
    gist="that their appointment has to be rescheduled",
    subject="Your appointment needs a new time",
    says=("reschedule", "rescheduled", "rescheduling", "move", "moved"),
    opens=("Our practitioner is out sick, so {s} can't go ahead as planned.",
           "We have to move {s}."),
    guards=frozenset({"event_over", "already_done"}),
    trial=True,
)
