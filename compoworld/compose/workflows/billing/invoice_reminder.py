"""Remind a customer of an invoice they have not paid yet."""

from compoworld.compose.steps import BIGGEST, DUE_FIRST, EVERY_VALID, SALES_INVOICE, send
from compoworld.compose.workflow import READ, Operator, Step, Workflow

WORKFLOW = Workflow(
    name="invoice_reminder",
    domain="billing",
    purpose="remind a customer of an unpaid invoice",
    steps=(
        Step(READ, "invoice", avoid=SALES_INVOICE),
        send("email", "phone", "name"),
    ),
    gist="reminding them that the invoice is still open",
    says=("invoice",),
    subject="A reminder about your invoice",
    opens=("{s} is still open.", "{s} is past its due date and still unpaid."),
    guards=frozenset({"settled", "no_amount"}),
    # a reminder goes to every invoice still owed ("every invoice whose status is overdue"),
    # never to a paid one
    operators=(EVERY_VALID, DUE_FIRST, BIGGEST,
               Operator("select", field="status state",
                        rule="open overdue unpaid outstanding due sent past_due"),),
)
