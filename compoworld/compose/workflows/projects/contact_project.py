"""Open a project for the company of a customer who has commissioned work from us."""

from compoworld.compose.steps import BY_SEGMENT, LEAD
from compoworld.compose.workflow import MAKE, Step, Workflow

WORKFLOW = Workflow(
    name="contact_project",
    domain="projects",
    purpose="open a project for a customer's commissioned work",
    steps=(
        LEAD,
        Step(MAKE, "task", ("company", "email", "name"),
             words=frozenset({"project", "projects"}), party=("company",)),
    ),
    opens=("{s} has commissioned a piece of work from us for their company.",
           "{s} signed off on our proposal, so their company's work can start."),
    trial=True,
    operators=(BY_SEGMENT,),
)
