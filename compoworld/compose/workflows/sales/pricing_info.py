"""Send a prospect our current prices."""

from compoworld.compose.steps import PROSPECT, send
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="pricing_info",
    domain="sales",
    purpose="send a prospect our pricing",
    steps=(
        PROSPECT,
        send("email", "phone", "name"),
    ),
    gist="sending them our current price list",
    subject="Our current pricing",
    says=("price", "pricing", "prices"),
    opens=("{s} asked about our pricing.",
           "{s} wants to know what our plans cost."),
)
