"""Hand an open incident over to the colleague on call tonight."""

from compoworld.compose.steps import BY_TEAM, COLLEAGUE_MESSAGE, ENGINEER
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="incident_handover",
    domain="engineering",
    purpose="hand an open incident over to the next person on call",
    steps=(
        ENGINEER,
        COLLEAGUE_MESSAGE,
    ),
    gist=("handing over the open payments incident for tonight's on-call shift, where card "
          "payments still fail for some EU customers"),
    subject="Handover: the open payments incident",
    says=("incident", "handover", "handing"),
    # (what the incident is: a handover of "the payments incident" told nothing to act on)
    tells=("EU customers",),
    opens=("{s} takes over on call tonight, and the payments incident is still open.",
           "The payments incident is not resolved yet, and {s} is on call next."),
    guards=frozenset({"gone"}),
    operators=(BY_TEAM,),
)
