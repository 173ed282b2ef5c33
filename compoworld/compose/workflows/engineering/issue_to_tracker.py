"""Track an issue of one app in the team's other tracker, under the same title."""

from compoworld.compose.steps import BY_PRIORITY, ISSUES, OLDEST, tagged
from compoworld.compose.workflow import MAKE, READ, Step, Workflow

WORKFLOW = Workflow(
    name="issue_to_tracker",
    domain="engineering",
    purpose="track an issue in the team's other tracker",
    steps=(
        Step(READ, "ticket", words=ISSUES),
        Step(MAKE, "ticket", ("text",), words=ISSUES),
    ),
    opens=("{s} should be tracked with the rest of our sprint work.",
           "We plan our sprints in one tracker, and {s} is not in it yet."),
    trial=True,
    operators=(tagged("urgent"), BY_PRIORITY, OLDEST),
)
