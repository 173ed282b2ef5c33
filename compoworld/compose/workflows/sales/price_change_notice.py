"""Tell a customer our prices change."""

from compoworld.compose.steps import BY_COMPANY, BY_REGION, BY_SEGMENT, CUSTOMER, send, tagged
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="price_change_notice",
    domain="sales",
    purpose="tell a customer about a price change",
    steps=(
        CUSTOMER,
        send("email", "phone", "name"),
    ),
    gist="letting them know our prices change on April 1",
    subject="Our prices change on April 1",
    says=("price", "prices"),
    tells=("April 1",),
    opens=("{s} buys from us regularly and should hear about our new prices first.",
           "{s} orders from us every month and will notice our April price change."),
    operators=(tagged("renewal"), BY_SEGMENT, BY_REGION, BY_COMPANY),
)
