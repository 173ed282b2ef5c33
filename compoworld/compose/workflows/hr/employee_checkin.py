"""Check in with a new colleague at the end of their first week."""

from compoworld.compose.steps import BY_TEAM, COLLEAGUE, COLLEAGUE_MESSAGE, tagged
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="employee_checkin",
    domain="hr",
    purpose="check in with a new colleague",
    steps=(
        COLLEAGUE,
        COLLEAGUE_MESSAGE,
    ),
    gist="checking in on how their first week went",
    tells=("first week",),
    subject="How is your first week going?",
    says=("week", "settling", "settled"),
    opens=("{s} is finishing their first week with us.",
           "{s} joined us last week, and we'd like to hear how it's going."),
    guards=frozenset({"gone"}),
    # a check-in with a team (not "the newest colleagues": the newest may have joined
    # months ago, and its gist asks how their first week went)
    operators=(tagged("onboarding"), BY_TEAM,),
)
