"""The corpus category (`ServiceSpec.domain`) of an OpenAPI document, and which apps are work.

The directory files each API under its `x-apisguru-categories`; the first becomes the
service's domain. For some work apps that list says where the API is hosted, not what it
is for: every Google API is "analytics" (Gmail, Calendar, Sheets, Drive...), Box is "cloud".
Filed so, the apps people automate most count as non-work (compose's NON_WORK_DOMAINS) and
leave the default selection. `CATEGORY_BY_API` re-files them by the API's own name (its
document id). The categories it uses are ones the corpus already has (`email`,
`time_management`, `collaboration`, `customer_relation`, `messaging`, ...), never new
names, so downstream code that keys on them (app kinds, customer domains, distractor
choice) treats a re-filed app like its peers.

`WORK_APPS` names the apps people automate (the mail, calendar, documents, chat, code,
tickets, payments and books of a business): the default selection takes them first,
whatever their category.
"""

from __future__ import annotations

from typing import Any

from compoworld.graph.semtypes import split_words

# Google Workspace: what each API is, in the corpus's own category names. Calendar is
# `time_management` (the corpus's scheduling category), the documents `collaboration`
# (shared team documents, like Notion and Trello), Contacts `customer_relation` (the people
# a business keeps), Tasks `project_management`.
CATEGORY_BY_API: dict[str, str] = {
    "googleapis.com/gmail": "email",
    "googleapis.com/calendar": "time_management",
    "googleapis.com/sheets": "collaboration",
    "googleapis.com/docs": "collaboration",
    "googleapis.com/slides": "collaboration",
    "googleapis.com/drive": "collaboration",
    "googleapis.com/keep": "collaboration",
    "googleapis.com/tasks": "project_management",
    "googleapis.com/people": "customer_relation",
    "googleapis.com/forms": "forms",
    "googleapis.com/chat": "messaging",
    "googleapis.com/admin": "enterprise",
    "googleapis.com/groupssettings": "enterprise",
    "googleapis.com/classroom": "education",
    # a business's shared files, filed under where they are hosted
    "box.com": "collaboration",
    # Apideck's unified APIs are each one kind of work app (a CRM, a help desk, an HR
    # system), but the directory files all of them under `developer_tools`: HR's
    # colleagues were never looked up in its HRIS, nor a lead in its lead API.
    "apideck.com/crm": "customer_relation",
    "apideck.com/lead": "customer_relation",
    "apideck.com/customer-support": "support",
    "apideck.com/hris": "enterprise",
    "apideck.com/ats": "enterprise",
    "apideck.com/accounting": "financial",
    "apideck.com/ecommerce": "ecommerce",
    "apideck.com/pos": "payment",
    "apideck.com/file-storage": "collaboration",
    "apideck.com/sms": "messaging",
    # HubSpot's APIs are filed under `other`
    "hubapi.com/crm": "customer_relation",
    "hubapi.com/marketing": "marketing",
    "hubapi.com/files": "collaboration",
}
# Providers whose every API is one kind of app, whatever the directory files a version
# under: GitHub Enterprise Server 2.18 sat in `collaboration`, so HR's colleagues (a
# holiday balance, a payslip) were looked up among a code host's users.
CATEGORY_BY_PROVIDER: dict[str, str] = {"github.com": "developer_tools"}

# Corpus categories no business workflow runs through: public data sets, entertainment,
# media, infrastructure. The same set as compose's NON_WORK_DOMAINS (a test holds them
# equal); it lives here too because the selection, which runs before compose, needs it.
NON_WORK_CATEGORIES = frozenset({"open_data", "entertainment", "media", "text", "transport",
                                 "search", "analytics", "hosting", "cloud", "monitoring",
                                 "iot", "security", "machine_learning", "backend"})

# The apps people automate, by document id: the default selection takes them first.
WORK_APPS = frozenset({
    *(api for api in CATEGORY_BY_API if api.startswith("googleapis.com/")),
    "slack.com", "github.com/api.github.com", "gitlab.com", "bitbucket.org",
    "atlassian.com/jira", "trello.com", "asana.com", "notion.com", "stripe.com",
    "squareup.com", "xero.com/xero_accounting", "mailchimp.com", "sendgrid.com",
    "telegram.org", "twilio.com/api", "zoom.us", "docusign.net", "box.com",
})


def corpus_category(doc_id: str, categories: Any) -> str:
    """The category a document is filed under: `CATEGORY_BY_API` for the work apps the
    directory files elsewhere, else its first `x-apisguru-categories` entry, else
    `other` (not yet snake-cased); every API of a provider of `CATEGORY_BY_PROVIDER` its
    category."""
    if doc_id in CATEGORY_BY_API:
        return CATEGORY_BY_API[doc_id]
    if doc_id.split("/", 1)[0] in CATEGORY_BY_PROVIDER:
        return CATEGORY_BY_PROVIDER[doc_id.split("/", 1)[0]]
    return str(categories[0]) if isinstance(categories, list) and categories else "other"


def is_work_app(source: str | None) -> bool:
    """Whether a service's `source` (`openapi:<document id>`) is one of `WORK_APPS`, or
    is one of the pinned MCP servers (`mcp:<package>@<version>`): each was pinned for the
    work app it serves (HubSpot, Notion, Linear...)."""
    return bool(source) and (source.startswith("mcp:")
                             or source.removeprefix("openapi:") in WORK_APPS)


# Corpus categories of apps where a business keeps its own people: its team chat, mail,
# projects, code, CRM and help desk. A farm-machinery platform's users, a fake-identity
# generator's users or a social network's are no colleagues to welcome or look up.
STAFF_DOMAINS = frozenset({"collaboration", "messaging", "email", "project_management",
                           "developer_tools", "enterprise", "time_management",
                           "customer_relation", "support", "payment"})
# Words of an HR app's name (its people are ours whatever its category).
_HR_WORDS = frozenset("hris hr payroll workforce".split())


def keeps_staff(domain: str, title: str) -> bool:
    """Whether an app of corpus category `domain` named `title` keeps the business's own
    people (its users are our colleagues): a category of `STAFF_DOMAINS`, or an HR app by
    name."""
    return domain in STAFF_DOMAINS or bool(set(split_words(title.lower())) & _HR_WORDS)
