"""Set up a project for a company we have started working for."""

from compoworld.compose.steps import BY_SEGMENT, NEWEST, PROJECTS, SUPPLIERS, tagged
from compoworld.compose.workflow import MAKE, READ, Step, Workflow

# A company we work for: a customer, client or partner company, never our own merchant
# account, an employer of our staff, a vendor, or an app's own organisation settings.
NOT_CLIENTS = SUPPLIERS | frozenset("merchant merchants employer employers user users setup "
                                    "businessuser holding audit".split())

WORKFLOW = Workflow(
    name="client_project",
    domain="projects",
    purpose="set up a project for a new client",
    steps=(
        Step(READ, "org", avoid=NOT_CLIENTS),
        Step(MAKE, "task", ("company", "email", "name"), words=PROJECTS, party=("company",)),
    ),
    opens=("We've signed {s} as a client, and their work needs a project.",
           "We're starting a piece of work for {s}."),
    trial=True,
    operators=(tagged("onboarding"), BY_SEGMENT, NEWEST),
)
