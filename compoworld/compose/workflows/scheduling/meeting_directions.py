"""Send the people coming to a meeting at our office directions to find us."""

from compoworld.compose.steps import send
from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name="meeting_directions",
    domain="scheduling",
    purpose="send a meeting's guests directions",
    steps=(
        Step(READ, "event"),
        send("email", "phone", "name", "time"),
    ),
    gist="sending them directions to our office for the meeting",
    subject="Finding our office",
    says=("directions", "office"),
    opens=("{s} is at our office, and the guest hasn't been here before.",
           "The guest of {s} asked how to find our office."),
    guards=frozenset({"event_over"}),
    trial=True,
)
