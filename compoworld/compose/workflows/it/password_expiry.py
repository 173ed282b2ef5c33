"""Remind a colleague that their password is about to expire."""

from compoworld.compose.steps import BY_TEAM, COLLEAGUE, COLLEAGUE_MESSAGE
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="password_expiry",
    domain="it",
    purpose="remind a colleague to change their expiring password",
    steps=(
        COLLEAGUE,
        COLLEAGUE_MESSAGE,
    ),
    gist="reminding them that their password expires this week",
    tells=("this week",),
    subject="Your password expires this week",
    says=("password",),
    opens=("Our password check flagged {s}: their password expires this week.",
           "{s} has not changed their password in a year, and it is about to expire."),
    guards=frozenset({"gone"}),
    operators=(BY_TEAM,),
)
