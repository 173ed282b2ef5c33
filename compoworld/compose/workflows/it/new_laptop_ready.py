"""Tell a colleague their new laptop is ready to collect."""

from compoworld.compose.steps import BY_TEAM, COLLEAGUE, COLLEAGUE_MESSAGE, NEWEST, tagged
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="new_laptop_ready",
    domain="it",
    purpose="tell a colleague their new laptop is ready",
    steps=(
        COLLEAGUE,
        COLLEAGUE_MESSAGE,
    ),
    gist="letting them know their new laptop is ready to pick up from the IT desk",
    subject="Your new laptop is ready",
    says=("laptop",),
    tells=("IT desk",),
    opens=("IT finished setting up a new laptop for {s}.",
           "{s}'s replacement laptop arrived and is set up."),
    guards=frozenset({"gone"}),
    operators=(tagged("onboarding"), BY_TEAM, NEWEST),
)
