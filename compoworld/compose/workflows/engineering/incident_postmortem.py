"""Book a postmortem with the engineer who handled an incident."""

from compoworld.compose.steps import ENGINEER, TEAM_MEETING
from compoworld.compose.workflow import Purpose, Workflow

WORKFLOW = Workflow(
    name="incident_postmortem",
    domain="engineering",
    purpose="book a postmortem with the engineer who handled an incident",
    steps=(
        ENGINEER,
        TEAM_MEETING,
    ),
    situation="meeting",
    meeting=Purpose("a postmortem", "Incident postmortem",
                    ("{s} handled last night's payments incident, and we need a postmortem.",
                     "I'd like to go through last night's outage with {s} in a postmortem.")),
)
