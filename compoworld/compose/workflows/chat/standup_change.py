"""Tell a colleague the daily stand-up has moved."""

from compoworld.compose.steps import BY_TEAM, COLLEAGUE, COLLEAGUE_MESSAGE, EVERY_VALID
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="standup_change",
    domain="chat",
    purpose="tell a colleague the stand-up moved",
    steps=(
        COLLEAGUE,
        COLLEAGUE_MESSAGE,
    ),
    gist="letting them know the daily stand-up moves to 9:30 from next Monday",
    subject="The daily stand-up moves to 9:30",
    says=("stand-up", "standup"),
    tells=("9:30", "next Monday"),
    opens=("The daily stand-up moves to 9:30, and {s} joins it every day.",
           "{s} missed the note that our stand-up time changes next week."),
    guards=frozenset({"gone"}),
    operators=(EVERY_VALID, BY_TEAM,),
)
