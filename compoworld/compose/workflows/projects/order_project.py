"""Plan a large custom order from a business customer as a project of its own."""

from compoworld.compose.steps import SALE
from compoworld.compose.workflow import MAKE, Step, Workflow

WORKFLOW = Workflow(
    name="order_project",
    domain="projects",
    purpose="plan a custom order as a project",
    steps=(
        SALE,
        Step(MAKE, "task", ("company", "amount", "currency", "time"),
             words=frozenset({"project", "projects"}), party=("company",)),
    ),
    opens=("{s} is a custom job, and producing it needs planning.",
           "{s} is too big to handle as a routine order."),
    guards=frozenset({"already_done"}),
    trial=True,
)
