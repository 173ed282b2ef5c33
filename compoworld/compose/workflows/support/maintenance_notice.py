"""Let a customer know about planned maintenance."""

from compoworld.compose.steps import BY_COMPANY, BY_REGION, BY_SEGMENT, CUSTOMER, send, tagged
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="maintenance_notice",
    domain="support",
    purpose="tell a customer about planned maintenance",
    steps=(
        CUSTOMER,
        send("email", "phone", "name"),
    ),
    gist="letting them know our online portal is down for maintenance on Sunday night",
    subject="Planned maintenance on Sunday night",
    says=("maintenance",),
    tells=("Sunday",),
    opens=("{s} uses our online portal every week.",
           "{s} often uses the portal on Sunday nights."),
    operators=(tagged("priority", "vip"), BY_SEGMENT, BY_REGION, BY_COMPANY),
)
