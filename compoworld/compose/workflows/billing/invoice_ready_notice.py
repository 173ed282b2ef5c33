"""Let a customer know their invoice is ready."""

from compoworld.compose.steps import BIGGEST, DUE_FIRST, SALES_INVOICE, send
from compoworld.compose.workflow import READ, Operator, Step, Workflow

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
           "{s} went out this month and the customer hasn't heard from us yet."),
    guards=frozenset({"settled"}),
    # every invoice issued and not yet settled is announced, never a draft
    operators=(DUE_FIRST, BIGGEST,
               Operator("select", field="status state",
                        rule="open issued sent authorised authorized approved finalized"),),
)
