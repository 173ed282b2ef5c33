"""Invite a customer to our customer day."""

from compoworld.compose.steps import (
    BY_COMPANY,
    BY_REGION,
    BY_SEGMENT,
    CUSTOMER,
    OLDEST,
    send,
    tagged,
)
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="customer_event_invite",
    domain="marketing",
    purpose="invite a customer to our customer day",
    steps=(
        CUSTOMER,
        send("email", "phone", "name"),
    ),
    gist="inviting them to our customer day on March 20",
    subject="You're invited: our customer day on March 20",
    says=("invite", "invited", "invitation"),
    tells=("March 20",),
    opens=("We're holding a customer day on March 20 and would love {s} to come.",
           "{s} is on the guest list for our customer day."),
    # an invitation to a segment or region, or to the customers who have been with us longest
    operators=(tagged("vip"), BY_SEGMENT, BY_REGION, OLDEST, BY_COMPANY),
)
