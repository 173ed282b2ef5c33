"""Welcome a new subscriber of our newsletter."""

from compoworld.compose.steps import BY_LEAD, NEWEST, SUBSCRIBERS, send
from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name="subscriber_welcome",
    domain="marketing",
    purpose="welcome a new subscriber",
    steps=(
        Step(READ, "person", words=SUBSCRIBERS),
        send("email", "phone"),
    ),
    gist="welcoming them to our newsletter",
    opens=("{s} just subscribed to our newsletter.",),
    trial=True,
    operators=(BY_LEAD, NEWEST),
)
