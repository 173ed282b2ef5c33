"""Remind a customer that their contract renews soon."""

from compoworld.compose.steps import CUSTOMER, send
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="renewal_reminder",
    domain="sales",
    purpose="remind a customer of their renewal",
    steps=(
        CUSTOMER,
        send("email", "phone", "name"),
    ),
    gist="reminding them that their contract renews next month",
    subject="Your contract renews next month",
    says=("renew", "renewal", "renews"),
    opens=("{s}'s contract comes up for renewal next month.",
           "{s} is up for renewal in April."),
)
