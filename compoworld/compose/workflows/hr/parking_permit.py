"""Tell a colleague their parking permit is ready."""

from compoworld.compose.steps import BY_TEAM, COLLEAGUE_MESSAGE, PERSONNEL
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="parking_permit",
    domain="hr",
    purpose="tell a colleague their parking permit is ready",
    steps=(
        PERSONNEL,
        COLLEAGUE_MESSAGE,
    ),
    gist="letting them know their parking permit is ready at reception",
    subject="Your parking permit is ready",
    says=("parking",),
    tells=("reception",),
    opens=("{s} applied for a parking space last month.",
           "Facilities issued a parking permit for {s}."),
    guards=frozenset({"gone"}),
    operators=(BY_TEAM,),
)
