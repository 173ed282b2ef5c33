"""Book a colleague's yearly performance review."""

from compoworld.compose.steps import PERSONNEL, TEAM_MEETING
from compoworld.compose.workflow import Purpose, Workflow

WORKFLOW = Workflow(
    name="performance_review",
    domain="hr",
    purpose="book a colleague's performance review",
    steps=(
        PERSONNEL,
        TEAM_MEETING,
    ),
    situation="meeting",
    meeting=Purpose("a performance review", "Performance review",
                    ("It's time for {s}'s yearly performance review.",
                     "{s} is due their annual performance review.")),
)
