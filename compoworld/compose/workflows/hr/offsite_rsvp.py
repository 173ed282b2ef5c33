"""Ask a colleague whether they are coming to the team offsite."""

from compoworld.compose.steps import BY_TEAM, COLLEAGUE, COLLEAGUE_MESSAGE, EVERY_VALID
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="offsite_rsvp",
    domain="hr",
    purpose="ask a colleague to RSVP for the offsite",
    steps=(
        COLLEAGUE,
        COLLEAGUE_MESSAGE,
    ),
    gist="asking whether they will join the team offsite on April 10",
    subject="Team offsite on April 10",
    says=("offsite",),
    tells=("April 10",),
    opens=("I'm counting heads for the team offsite, and {s} hasn't answered.",
           "{s} is on the invite list for our April offsite."),
    guards=frozenset({"gone"}),
    operators=(EVERY_VALID, BY_TEAM,),
)
