"""Apologise to a customer for a service outage."""

from compoworld.compose.steps import BY_COMPANY, BY_REGION, BY_SEGMENT, CUSTOMER, send, tagged
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="outage_apology",
    domain="support",
    purpose="apologise to a customer for an outage",
    steps=(
        CUSTOMER,
        send("email", "phone", "name"),
    ),
    gist="apologising for yesterday's service outage, which is now fixed",
    subject="Sorry about yesterday's outage",
    says=("outage",),
    tells=("fixed",),
    opens=("{s} was affected by yesterday's outage.",
           "{s} could not reach our service during yesterday's outage."),
    operators=(tagged("priority", "vip"), BY_SEGMENT, BY_REGION, BY_COMPANY),
)
