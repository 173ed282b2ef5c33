"""Book a first one-on-one with a colleague."""

from compoworld.compose.steps import PERSONNEL, TEAM_MEETING
from compoworld.compose.workflow import Purpose, Workflow

WORKFLOW = Workflow(
    name="one_on_one",
    domain="hr",
    purpose="book a one-on-one with a colleague",
    steps=(
        PERSONNEL,
        TEAM_MEETING,
    ),
    situation="meeting",
    meeting=Purpose("a one-on-one", "One-on-one",
                    ("I haven't had a one-on-one with {s} yet this quarter.",
                     "{s} asked for a one-on-one to talk about their goals.")),
)
