"""Set up a video call for a meeting on the calendar."""

from compoworld.compose.steps import APPOINTMENTS
from compoworld.compose.workflow import MAKE, READ, Step, Workflow

WORKFLOW = Workflow(
    name="meeting_video_call",
    domain="scheduling",
    purpose="set up a video call for a meeting",
    steps=(
        Step(READ, "event", avoid=APPOINTMENTS),
        Step(MAKE, "event", ("time", "name", "email"),
             words=frozenset("meeting meetings webinar webinars conference".split()),
             avoid=APPOINTMENTS),
    ),
    opens=("{s} will be held online, and it needs a video call.",
           "Not everyone can be there in person for {s}, so we'll meet by video."),
    guards=frozenset({"half_span", "past_copy"}),
    trial=True,
)
