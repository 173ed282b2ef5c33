"""Book a colleague's yearly performance review."""

from compoworld.compose.steps import PERSONNEL, WHO
from compoworld.compose.workflow import MAKE, Purpose, Step, Workflow

WORKFLOW = Workflow(
    name="performance_review",
    domain="hr",
    purpose="book a colleague's performance review",
    steps=(
        PERSONNEL,
        Step(MAKE, "event", ("email", "name", "phone"), party=WHO),
    ),
    situation="meeting",
    meeting=Purpose("a performance review", "Performance review",
                    ("It's time for {s}'s yearly performance review.",
                     "{s} is due their annual performance review.")),
    trial=True,  # until more calendars than OnSched's take a guest (docs/compose.md)
)
