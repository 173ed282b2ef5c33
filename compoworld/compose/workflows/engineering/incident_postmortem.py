"""Book a postmortem with the engineer who handled an incident."""

from compoworld.compose.steps import ENGINEER, WHO
from compoworld.compose.workflow import MAKE, Purpose, Step, Workflow

WORKFLOW = Workflow(
    name="incident_postmortem",
    domain="engineering",
    purpose="book a postmortem with the engineer who handled an incident",
    steps=(
        ENGINEER,
        Step(MAKE, "event", ("email", "name", "phone"), party=WHO),
    ),
    situation="meeting",
    meeting=Purpose("a postmortem", "Incident postmortem",
                    ("{s} handled last night's payments incident, and we need a postmortem.",
                     "I'd like to go through last night's outage with {s} in a postmortem.")),
    trial=True,  # until more calendars than OnSched's take a guest (docs/compose.md)
)
