"""Tell a customer that the card on file is about to expire."""

from compoworld.compose.steps import BY_SEGMENT, CUSTOMER, send, tagged
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="card_expiry_notice",
    domain="billing",
    purpose="tell a customer their card on file is expiring",
    steps=(
        CUSTOMER,
        send("email", "phone", "name"),
    ),
    gist="letting them know the card on file expires at the end of the month",
    tells=("end of the month",),
    subject="Your card on file expires soon",
    says=("card",),
    opens=("{s}'s card on file expires at the end of this month.",
           "The card we charge {s} with is about to expire."),
    operators=(tagged("billing"), BY_SEGMENT,),
)
