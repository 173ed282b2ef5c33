"""Tell a colleague their expense claim was approved."""

from compoworld.compose.steps import send
from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name="expense_notify",
    domain="billing",
    purpose="tell a colleague their expense was approved",
    steps=(
        Step(READ, "expense"),
        send("email", "phone", "name"),
    ),
    gist="that their expense was approved",
    subject="Your expense was approved",
    says=("approved", "approval"),  # ("expense" alone passes "your expense was rejected")
    opens=("{s} was approved.", "Finance signed off on {s}, and the colleague should know."),
    guards=frozenset({"not_granted"}),
    trial=True,
)
