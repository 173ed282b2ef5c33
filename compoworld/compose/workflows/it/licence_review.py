"""Ask a colleague whether they still need a software licence before it renews."""

from compoworld.compose.steps import BY_TEAM, COLLEAGUE, COLLEAGUE_MESSAGE, EVERY_VALID
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="licence_review",
    domain="it",
    purpose="ask a colleague about their software licence",
    steps=(
        COLLEAGUE,
        COLLEAGUE_MESSAGE,
    ),
    gist="asking whether they still need their design software licence before it renews next month",
    tells=("next month",),
    subject="Do you still need your design software licence?",
    says=("licence", "license"),
    opens=("We're reviewing software licences before renewal, and {s} holds one.",
           "{s} hasn't opened the design software in three months."),
    guards=frozenset({"gone"}),
    operators=(EVERY_VALID, BY_TEAM,),
)
