"""Tell a colleague they now have access to a shared drive."""

from compoworld.compose.steps import BY_TEAM, COLLEAGUE_MESSAGE, NEWEST, PERSONNEL, tagged
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="drive_access_granted",
    domain="documents",
    purpose="tell a colleague their access to a shared drive is granted",
    steps=(
        PERSONNEL,
        COLLEAGUE_MESSAGE,
    ),
    gist="letting them know they now have access to the Finance shared drive",
    subject="You now have access to the Finance shared drive",
    says=("access",),
    tells=("Finance",),
    opens=("{s} asked for access to the Finance shared drive, and it has been granted.",
           "IT has just given {s} access to the Finance shared drive."),
    guards=frozenset({"gone"}),
    # access granted to a team, or to the colleagues who joined last
    operators=(tagged("onboarding"), BY_TEAM, NEWEST),
)
