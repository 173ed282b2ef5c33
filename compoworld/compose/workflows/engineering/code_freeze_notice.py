"""Tell a colleague that the release code freeze starts."""

from compoworld.compose.steps import BY_TEAM, COLLEAGUE_MESSAGE, ENGINEER, EVERY_VALID
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="code_freeze_notice",
    domain="engineering",
    purpose="tell a colleague when the code freeze starts",
    steps=(
        ENGINEER,
        COLLEAGUE_MESSAGE,
    ),
    gist="letting them know the code freeze for the release starts on Thursday",
    subject="Code freeze starts Thursday",
    says=("freeze",),
    tells=("Thursday",),
    opens=("{s} still has changes in flight, and the release code freeze is coming.",
           "Before the release, {s} needs to know when the code freeze starts."),
    guards=frozenset({"gone"}),
    operators=(EVERY_VALID, BY_TEAM,),
)
