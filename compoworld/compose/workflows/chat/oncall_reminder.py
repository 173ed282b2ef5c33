"""Remind a colleague directly that their on-call shift is coming up."""

from compoworld.compose.steps import BY_TEAM, COLLEAGUE, COLLEAGUE_MESSAGE
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="oncall_reminder",
    domain="chat",
    purpose="remind a colleague of their on-call shift",
    steps=(
        COLLEAGUE,
        COLLEAGUE_MESSAGE,
    ),
    gist="reminding them that their on-call shift starts this weekend",
    tells=("this weekend",),
    subject="Your on-call shift this weekend",
    says=("on-call", "on call", "shift"),
    opens=("{s} is on call this weekend.", "{s} takes over the on-call pager on Saturday."),
    guards=frozenset({"gone"}),
    operators=(BY_TEAM,),
)
