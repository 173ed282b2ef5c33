"""Send a customer the warranty details of what they ordered."""

from compoworld.compose.steps import SALE, send
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="order_warranty_info",
    domain="commerce",
    purpose="send a customer their warranty details",
    steps=(
        SALE,
        send("email", "phone", "name"),
    ),
    gist="sending them the warranty details for what they ordered",
    subject="Warranty details for your order",
    says=("warranty",),
    opens=("We were asked about the warranty on {s}.",
           "{s} includes items with a two-year warranty."),
    guards=frozenset({"called_off"}),
    trial=True,
)
