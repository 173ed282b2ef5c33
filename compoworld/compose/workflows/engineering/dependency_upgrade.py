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
    gist="asking them to upgrade log4j to 2.17.2 by Friday",
    subject="Please upgrade log4j to 2.17.2",
    says=("upgrade", "upgrading"),
    # (which library, and to what: "the flagged logging library" named none)
    tells=("Friday", "log4j", "2.17.2"),
    opens=("The security scan flagged log4j in the service {s} maintains.",
           "{s} owns the service that still runs the flagged version of log4j."),
    guards=frozenset({"gone"}),
    operators=(BY_TEAM,),
)
