"""Thank a lead for attending our webinar."""

from compoworld.compose.steps import BY_SEGMENT, LEAD, send
from compoworld.compose.workflow import Workflow

WORKFLOW = Workflow(
    name="webinar_thank_you",
    domain="marketing",
    purpose="thank a lead for attending our webinar",
    steps=(
        LEAD,
        send("email", "phone", "name"),
    ),
    gist="thanking them for attending our webinar and saying the recording will follow",
    tells=("recording",),
    subject="Thanks for joining our webinar",
    says=("webinar",),
    opens=("{s} attended our webinar yesterday.",
           "{s} joined our product webinar this week."),
    operators=(BY_SEGMENT,),
)
