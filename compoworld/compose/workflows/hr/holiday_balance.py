"""Remind a colleague to plan their remaining holiday."""

from compoworld.compose.steps import BY_TEAM, COLLEAGUE_MESSAGE, EVERY_VALID, PERSONNEL
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="holiday_balance",
    domain="hr",
    purpose="remind a colleague to plan their remaining holiday",
    steps=(
        PERSONNEL,
        COLLEAGUE_MESSAGE,
    ),
    gist="reminding them to book the holiday days they carried over before the end of March",
    subject="Your carried-over holiday days",
    says=("holiday", "days off", "leave"),
    tells=("March",),
    opens=("{s} still has holiday days carried over from last year.",
           "{s} carried over days off that expire at the end of March."),
    guards=frozenset({"gone"}),
    operators=(EVERY_VALID, BY_TEAM,),
)
