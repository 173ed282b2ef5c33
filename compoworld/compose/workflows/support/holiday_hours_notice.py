"""Tell a regular customer our opening hours over a holiday."""

from compoworld.compose.steps import BY_COMPANY, BY_REGION, BY_SEGMENT, CUSTOMER, send, tagged
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="holiday_hours_notice",
    domain="support",
    purpose="tell a customer our holiday hours",
    steps=(
        CUSTOMER,
        send("email", "phone", "name"),
    ),
    gist="letting them know we are closed from Good Friday to Easter Monday",
    subject="Our opening hours over Easter",
    says=("Easter",),  # ("hours" alone passed a message that gave none)
    opens=("{s} is one of our regular customers and should know our Easter hours.",
           "{s} often calls us in the week of Easter."),
    tells=("Good Friday", "Easter Monday"),
    operators=(tagged("vip"), BY_SEGMENT, BY_REGION, BY_COMPANY),
)
