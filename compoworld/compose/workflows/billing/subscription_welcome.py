"""Welcome a customer who just subscribed to a plan."""

from compoworld.compose.steps import send
from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name="subscription_welcome",
    domain="billing",
    purpose="welcome a new subscriber to their plan",
    steps=(
        Step(READ, "payment", words=frozenset({"subscription", "subscriptions"})),
        send("email", "phone", "name"),
    ),
    gist="welcoming them to their new plan",
    subject="Welcome to your subscription",
    opens=("{s} just started.", "A customer signed up for {s}."),
    guards=frozenset({"already_done"}),
    trial=True,
)
