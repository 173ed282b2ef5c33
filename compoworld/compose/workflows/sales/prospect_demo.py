"""Take on a prospect: add them as a contact, open their deal and offer them a demo (a job
of two workflows about one person)."""

from compoworld.compose.workflow import chain
from compoworld.compose.workflows.sales.demo_offer import WORKFLOW as DEMO_OFFER
from compoworld.compose.workflows.sales.lead_contact_task import WORKFLOW as CONTACT_TASK

WORKFLOW = chain("prospect_demo", "sales",
                 "take on a prospect, open their deal and offer them a demo",
                 CONTACT_TASK, DEMO_OFFER)
