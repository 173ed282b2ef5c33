"""Confirm an upcoming appointment to the client who booked it."""

from compoworld.compose.steps import APPOINTMENTS, EVERY_VALID, NEXT_UP, send
from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name="booking_confirmation",
    domain="scheduling",
    purpose="confirm an appointment to the client",
    steps=(
        Step(READ, "event", words=APPOINTMENTS),
        send("email", "phone", "name", "time"),
    ),
    gist="confirming their appointment",
    subject="Your appointment is confirmed",
    says=("confirm", "confirmed", "confirming", "confirmation"),
    opens=("{s} was just booked, and the client is waiting for a confirmation.",
           "The client hasn't had a confirmation of {s} yet."),
    guards=frozenset({"event_over"}),
    operators=(EVERY_VALID, NEXT_UP,),
)
