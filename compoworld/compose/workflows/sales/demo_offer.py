"""Offer a prospect a short demo of our product."""

from compoworld.compose.steps import BY_LEAD, NEWEST, PROSPECT, send, tagged
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="demo_offer",
    domain="sales",
    purpose="offer a prospect a product demo",
    steps=(
        PROSPECT,
        send("email", "phone", "name"),
    ),
    gist="offering them a short demo of our product",
    subject="A quick demo of our product",
    says=("demo",),
    opens=("{s} asked what our product could do for them.",
           "{s} downloaded our product brochure last week."),
    operators=(tagged("priority"), BY_LEAD, NEWEST),
)
