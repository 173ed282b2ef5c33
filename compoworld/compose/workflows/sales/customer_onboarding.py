"""Onboard a new customer: add them as a contact, open their deal, book a first meeting and
invite them to it (a job of two workflows about one person)."""

from compoworld.compose.workflow import chain
from compoworld.compose.workflows.sales.lead_contact_task import WORKFLOW as CONTACT_TASK
from compoworld.compose.workflows.scheduling.contact_meeting_message import (
    WORKFLOW as MEETING_MESSAGE,
)

WORKFLOW = chain("customer_onboarding", "sales",
                 "take on a new customer, open their deal, and book a first meeting with them",
                 CONTACT_TASK, MEETING_MESSAGE)
