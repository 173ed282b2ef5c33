"""Thank a customer for their order."""

from compoworld.compose.steps import BIGGEST, SALE, send
from compoworld.compose.workflow import Operator, Workflow

WORKFLOW = Workflow(
    name="order_thank_you",
    domain="commerce",
    purpose="thank a customer for their order",
    steps=(
        SALE,
        send("email", "phone", "name"),
    ),
    gist="thanking them for their order",
    subject="Thank you for your order",
    # (no "the customer behind James Larsen's order": the order names its customer)
    opens=("{s} just came in.", "{s} came in, and we'd like to thank them for it."),
    guards=frozenset({"called_off"}),
    # every order that went through is thanked for
    operators=(BIGGEST,
               Operator("select", field="status state",
                        rule="completed delivered shipped fulfilled paid"),),
)
