"""Ask a colleague to upgrade a library a security scan flagged."""

from compoworld.compose.steps import BY_TEAM, COLLEAGUE_MESSAGE, ENGINEER
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="dependency_upgrade",
    domain="engineering",
    purpose="ask a colleague to upgrade a flagged library",
    steps=(
        ENGINEER,
        COLLEAGUE_MESSAGE,
    ),
    gist="asking them to upgrade the logging library the security scan flagged, by Friday",
    subject="Please upgrade the flagged logging library",
    says=("upgrade", "upgrading"),
    tells=("Friday",),
    opens=("The security scan flagged the logging library in the service {s} maintains.",
           "{s} owns the service that still uses the flagged logging library."),
    guards=frozenset({"gone"}),
    operators=(BY_TEAM,),
)
