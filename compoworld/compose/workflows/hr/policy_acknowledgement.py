"""Ask a colleague to acknowledge the updated travel policy."""

from compoworld.compose.steps import BY_TEAM, COLLEAGUE_MESSAGE, EVERY_VALID, PERSONNEL
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="policy_acknowledgement",
    domain="hr",
    purpose="ask a colleague to acknowledge a policy",
    steps=(
        PERSONNEL,
        COLLEAGUE_MESSAGE,
    ),
    gist="asking them to read and acknowledge the updated travel policy by Friday",
    subject="Please acknowledge the updated travel policy",
    says=("policy",),
    tells=("Friday",),
    opens=("{s} hasn't acknowledged the updated travel policy yet.",
           "The new travel policy needs everyone's sign-off, and {s} is still missing."),
    guards=frozenset({"gone"}),
    operators=(EVERY_VALID, BY_TEAM,),
)
