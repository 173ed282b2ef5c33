"""Send a prospect our current prices."""

from compoworld.compose.steps import BY_LEAD, NEWEST, PROSPECT, send, tagged
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="pricing_info",
    domain="sales",
    purpose="send a prospect our pricing",
    steps=(
        PROSPECT,
        send("email", "phone", "name"),
    ),
    gist="letting them know our plans start at 49 EUR a month",  # (a price list
    # "sent" with no list in it promised what the world does not hold)
    subject="Our current pricing",
    says=("price", "pricing", "prices", "plans"),
    tells=("49 EUR",),
    opens=("{s} asked about our pricing.",
           "{s} wants to know what our plans cost."),
    operators=(tagged("priority"), BY_LEAD, NEWEST),
)
