"""Remind a customer that their contract renews soon."""

from compoworld.compose.steps import BUYERS, BY_COMPANY, BY_SEGMENT, TOP_SPENDERS, send, tagged
from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name="renewal_reminder",
    domain="sales",
    purpose="remind a customer of their renewal",
    steps=(
        # a customer with a contract: a CRM's, the books', a billing app's, never a shop's
        # (an online store's customer "up for renewal" has no contract to renew)
        Step(READ, "person", words=BUYERS, not_in=frozenset({"ecommerce"})),
        send("email", "phone", "name"),
    ),
    gist="reminding them that their contract renews next month",
    tells=("next month",),
    subject="Your contract renews next month",
    says=("renew", "renewal", "renews"),
    opens=("{s}'s contract comes up for renewal next month.",
           "{s} is up for renewal in April."),
    operators=(tagged("renewal"), BY_SEGMENT, TOP_SPENDERS, BY_COMPANY),
)
