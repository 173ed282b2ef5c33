"""Ask a departing colleague to hand back their laptop and equipment."""

from compoworld.compose.steps import BY_TEAM, COLLEAGUE, COLLEAGUE_MESSAGE
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="laptop_return",
    domain="it",
    purpose="ask a departing colleague to return their equipment",
    steps=(
        COLLEAGUE,
        COLLEAGUE_MESSAGE,
    ),
    gist="asking them to return their laptop before their last day",
    subject="Returning your laptop",
    says=("laptop",),
    opens=("{s} is leaving us at the end of the month.", "{s} handed in their notice."),
    guards=frozenset({"gone"}),
    operators=(BY_TEAM,),
)
