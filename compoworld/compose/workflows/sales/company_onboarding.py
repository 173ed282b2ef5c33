"""Onboard a new client company: set up its account and contact person, and open a project
for the work (a job of two workflows about one company)."""

from compoworld.compose.workflow import chain
from compoworld.compose.workflows.projects.client_project import WORKFLOW as CLIENT_PROJECT
from compoworld.compose.workflows.sales.company_account_contact import (
    WORKFLOW as ACCOUNT_CONTACT,
)

WORKFLOW = chain("company_onboarding", "sales",
                 "set up a new client company, its contact person and a project for the work",
                 ACCOUNT_CONTACT, CLIENT_PROJECT)
