"""Let a colleague know their VPN access is set up."""

from compoworld.compose.steps import BY_TEAM, COLLEAGUE, COLLEAGUE_MESSAGE, NEWEST, tagged
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="vpn_access_ready",
    domain="it",
    purpose="let a colleague know their VPN access is ready",
    steps=(
        COLLEAGUE,
        COLLEAGUE_MESSAGE,
    ),
    gist="letting them know their VPN access is ready to use",
    subject="Your VPN access is ready",
    says=("VPN",),
    opens=("IT finished setting up remote access for {s}.",
           "{s} asked for VPN access to work from home."),
    guards=frozenset({"gone"}),
    operators=(tagged("onboarding"), BY_TEAM, NEWEST),
)
