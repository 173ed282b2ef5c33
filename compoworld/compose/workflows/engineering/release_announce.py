"""Tell people a release is out, with where to find it."""

from compoworld.compose.steps import NEWEST, send
from compoworld.compose.workflow import READ, Step, Workflow

WORKFLOW = Workflow(
    name="release_announce",
    domain="engineering",
    purpose="announce a release",
    steps=(
        Step(READ, "release"),
        send("url", "name", "email"),
    ),
    gist="announcing the new release",
    says=("release", "released"),
    opens=("{s} is out.", "We just shipped {s}."),
    trial=True,
    operators=(NEWEST,),
)
