"""Put a colleague's time off on the team calendar."""

from compoworld.compose.workflow import MAKE, READ, Step, Workflow

WORKFLOW = Workflow(
    name="leave_calendar",
    domain="hr",
    purpose="put a colleague's time off on the calendar",
    steps=(
        Step(READ, "leave"),
        Step(MAKE, "event", ("email", "name", "time")),
    ),
    opens=("{s} was approved.", "{s} is coming up, and the team should know."),
    guards=frozenset({"not_granted"}),
    trial=True,
)
