"""Give a new colleague an account in another tool, and tell them it is ready."""

from compoworld.compose.steps import (
    BY_TEAM,
    COLLEAGUE,
    COLLEAGUE_MESSAGE,
    NEW_COLLEAGUE,
    NEWEST,
    tagged,
)
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="account_setup_notice",
    domain="it",
    purpose="set up a new colleague's account and tell them",
    steps=(
        COLLEAGUE,
        NEW_COLLEAGUE,
        COLLEAGUE_MESSAGE,
    ),
    gist="that their new account is ready",
    opens=("{s} is starting with us and needs their accounts set up.",),
    guards=frozenset({"gone"}),
    operators=(tagged("onboarding"), BY_TEAM, NEWEST),
)
