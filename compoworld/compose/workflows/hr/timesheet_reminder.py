"""Remind a colleague to submit their timesheet."""

from compoworld.compose.steps import BY_TEAM, COLLEAGUE_MESSAGE, EVERY_VALID, PERSONNEL
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="timesheet_reminder",
    domain="hr",
    purpose="remind a colleague to submit their timesheet",
    steps=(
        PERSONNEL,
        COLLEAGUE_MESSAGE,
    ),
    gist="reminding them to submit last week's timesheet",
    tells=("last week",),
    subject="Your timesheet for last week",
    says=("timesheet",),
    opens=("{s} hasn't submitted a timesheet for last week.",
           "Payroll is waiting on last week's timesheet from {s}."),
    guards=frozenset({"gone"}),
    operators=(EVERY_VALID, BY_TEAM,),
)
