"""Find a colleague's details in another of the team's tools, looked up by their email."""

from compoworld.compose.steps import BY_TEAM, COLLEAGUE, COLLEAGUES, KEYS, NOT_COLLEAGUES
from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name="colleague_details",
    domain="it",
    purpose="find a colleague's details in another tool",
    steps=(
        COLLEAGUE,
        Step(READ, "person", KEYS, words=COLLEAGUES, avoid=NOT_COLLEAGUES),
    ),
    opens=("I'm updating the on-call rota and need the details of {s}.",
           "{s} is joining the on-call rota, and I need their details from our other tools."),
    guards=frozenset({"gone"}),
    operators=(BY_TEAM,),
)
