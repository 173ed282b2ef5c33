"""Ask a colleague to turn on two-factor sign-in."""

from compoworld.compose.steps import (
    BY_TEAM,
    COLLEAGUE,
    COLLEAGUE_MESSAGE,
    EVERY_VALID,
    NEWEST,
    tagged,
)
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="two_factor_setup",
    domain="it",
    purpose="ask a colleague to turn on two-factor sign-in",
    steps=(
        COLLEAGUE,
        COLLEAGUE_MESSAGE,
    ),
    gist="asking them to turn on two-factor sign-in for their account",
    subject="Please turn on two-factor sign-in",
    says=("two-factor", "2FA", "two-step"),
    opens=("{s} is one of the last people without two-factor sign-in.",
           "Our security check shows {s} still signs in with a password alone."),
    guards=frozenset({"gone"}),
    operators=(tagged("onboarding"), EVERY_VALID, BY_TEAM, NEWEST),
)
