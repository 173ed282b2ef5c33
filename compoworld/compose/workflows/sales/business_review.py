"""Book a quarterly business review with a customer."""

from compoworld.compose.steps import CLIENT, WHO
from compoworld.compose.workflow import MAKE, Purpose, Step, Workflow

WORKFLOW = Workflow(
    name="business_review",
    domain="sales",
    purpose="book a quarterly business review with a customer",
    steps=(
        CLIENT,
        Step(MAKE, "event", ("email", "name", "phone"), party=WHO),
    ),
    situation="meeting",
    meeting=Purpose("a quarterly business review", "Quarterly business review",
                    ("Our quarterly business review with {s} is due.",
                     "I'd like to go over last quarter's results with {s}.")),
)
