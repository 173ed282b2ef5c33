"""Pay a colleague back for an expense."""

from compoworld.compose.workflow import MAKE, READ, Step, Workflow

WORKFLOW = Workflow(
    name="expense_reimburse",
    domain="billing",
    purpose="reimburse a colleague's expense",
    steps=(
        Step(READ, "expense"),
        Step(MAKE, "payment", ("amount", "currency", "email", "name"), needs=("amount",),
             words=frozenset("payout payouts transfer transfers payment payments".split())),
    ),
    opens=("{s} was approved for reimbursement.", "We owe a colleague for {s}."),
    guards=frozenset({"not_granted"}),
    trial=True,
)
