"""Let a customer know their invoice is ready."""

from compoworld.compose.steps import SALES_INVOICE, send
from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name="invoice_ready_notice",
    domain="billing",
    purpose="tell a customer their invoice is ready",
    steps=(
        Step(READ, "invoice", avoid=SALES_INVOICE),
        send("email", "phone", "name"),
    ),
    gist="letting them know their invoice is ready",
    subject="Your invoice is ready",
    says=("invoice",),
    opens=("{s} is ready to go to the customer.",
           "I'm sending out this month's invoices, starting with {s}."),
    guards=frozenset({"settled"}),
)
