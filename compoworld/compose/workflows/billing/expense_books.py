"""Record a colleague's expense in the books."""

from compoworld.compose.workflow import MAKE, READ, Step, Workflow

WORKFLOW = Workflow(
    name="expense_books",
    domain="billing",
    purpose="record an expense in the books",
    steps=(
        Step(READ, "expense"),
        Step(MAKE, "expense", ("amount", "currency", "name", "time"), needs=("amount",)),
    ),
    opens=("{s} has to go into the books.", "Accounting is missing {s}."),
    trial=True,
)
