"""Remind a colleague to file their expense report before the month closes."""

from compoworld.compose.steps import BY_TEAM, COLLEAGUE_MESSAGE, EVERY_VALID, PERSONNEL
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="expense_report_reminder",
    domain="billing",
    purpose="remind a colleague to file their expense report",
    steps=(
        PERSONNEL,
        COLLEAGUE_MESSAGE,
    ),
    gist="reminding them to file their February expense report",
    subject="Your February expense report",
    says=("expense",),
    tells=("February",),
    opens=("Finance is closing February, and {s} still has expenses to report.",
           "{s} hasn't filed their February expense report yet."),
    guards=frozenset({"gone"}),
    operators=(EVERY_VALID, BY_TEAM,),
)
