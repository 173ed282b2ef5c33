"""Thank a customer for their order."""

from compoworld.compose.steps import SALE, send
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="order_thank_you",
    domain="commerce",
    purpose="thank a customer for their order",
    steps=(
        SALE,
        send("email", "phone", "name"),
    ),
    gist="thanking them for their order",
    opens=("{s} just came in.", "We'd like the customer behind {s} to hear from us."),
    guards=frozenset({"called_off"}),
)
