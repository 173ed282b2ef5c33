"""Remind a colleague to sign their updated employment contract."""

from compoworld.compose.steps import BY_TEAM, COLLEAGUE_MESSAGE, NEWEST, PERSONNEL, tagged
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="contract_signature",
    domain="hr",
    purpose="remind a colleague to sign their contract",
    steps=(
        PERSONNEL,
        COLLEAGUE_MESSAGE,
    ),
    gist="reminding them to sign their updated employment contract this week",
    tells=("this week", "sign"),
    subject="Your updated employment contract",
    says=("contract",),
    opens=("HR is still waiting on {s}'s signed contract.",
           "The updated employment contract of {s} is waiting for their signature."),
    guards=frozenset({"gone"}),
    # a contract to sign for a team, or for the colleagues who joined last
    operators=(tagged("onboarding"), BY_TEAM, NEWEST),
)
