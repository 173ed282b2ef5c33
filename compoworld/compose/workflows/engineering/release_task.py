"""Plan the rollout of a release as a task."""

from compoworld.compose.steps import DEALS, NEWEST, PROJECTS
from compoworld.compose.workflow import MAKE, READ, Step, Workflow

WORKFLOW = Workflow(
    name="release_task",
    domain="engineering",
    purpose="plan the rollout of a release",
    steps=(
        Step(READ, "release"),
        Step(MAKE, "task", ("title", "url", "name", "time"), avoid=PROJECTS | DEALS),
    ),
    opens=("{s} has to be rolled out to our customers.", "We need a plan to roll out {s}."),
    trial=True,
    operators=(NEWEST,),
)
