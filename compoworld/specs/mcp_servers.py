"""The second corpus: the tool lists of real MCP servers, pinned npm packages read offline.

The OpenAPI directory lacks most of the apps people automate at work (HubSpot, Airtable,
Shopify, Linear, Monday, Todoist, Discord), and for the ones it has (Google's, Slack,
GitHub, Asana, Trello, Notion) it holds the raw REST surface, not the agent-facing tools
their MCP servers offer. Each `McpServer` below pins one npm package: its exact version,
its licence as its own package.json states it (only permissive ones: `PERMISSIVE_LICENSES`),
how to start it over stdio, and the dummy credentials (environment variables, and files where
a server insists on reading one) that let it start and answer `tools/list` with no network:
these servers only reach their API when a tool is called.

`specs/mcp_fetch.py` installs and lists them; this module also says what a stored document
holds and how it becomes a `ServiceSpec` (`load_mcp_document`): the tools go through the
function-list loader, and the service takes its name, app title, corpus category (the
OpenAPI directory's vocabulary: `customer_relation`, `ecommerce`, `project_management`...),
`source` (`mcp:<package>@<version>`) and licence from the pin.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from typing import Any

from compoworld.specs.errors import SpecLoadError
from compoworld.specs.functions import load_function_list
from compoworld.specs.limits import NO_DEADLINE, Deadline
from compoworld.specs.records import ServiceSpec

# SPDX identifiers a package may carry to be pinned: no copyleft, no custom terms.
PERMISSIVE_LICENSES = frozenset({"MIT", "Apache-2.0", "BSD-2-Clause", "BSD-3-Clause", "ISC",
                                 "0BSD"})
# Transitive dependencies float within their ranges; resolving them as of this day keeps a
# fresh install today and in a year the same, as far as the registry still serves them.
NPM_BEFORE = "2026-12-01"
# What a stored document's `mcp_server` entry must hold to be loaded.
_META_KEYS = ("package", "version", "license", "service", "title", "domain", "description")
_TOKEN = "dummy-offline-token"
# A Google OAuth client and a saved token: the Google servers refuse to start without them,
# and never check them before a tool is called.
_GOOGLE_CLIENT = json.dumps({"installed": {
    "client_id": "dummy.apps.googleusercontent.com", "client_secret": "dummy",
    "redirect_uris": ["http://localhost"]}})
_GOOGLE_TOKEN = {"access_token": "dummy", "refresh_token": "dummy", "token_type": "Bearer",
                 "expiry_date": 4102444800000}


@dataclass(frozen=True, slots=True)
class McpServer:
    """One pinned MCP server package and how to start it offline over stdio.

    The command is `node <package folder>/<entry> <args...>`. In `env` values and `files`
    paths, `{home}` is the server's own empty home folder, made for each start.
    """

    package: str
    version: str
    license: str
    service: str
    title: str
    domain: str
    description: str
    entry: str
    args: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)

    @property
    def spec(self) -> str:
        """`package@version`, as npm takes it."""
        return f"{self.package}@{self.version}"

    @property
    def document_name(self) -> str:
        """The file name of its stored tool list (`hubspot-mcp-server@0.4.0.json`)."""
        return f"{self.package.lstrip('@').replace('/', '-')}@{self.version}.json"

    def meta(self) -> dict[str, str]:
        """The `mcp_server` entry of its stored document."""
        return {key: getattr(self, key) for key in _META_KEYS}


MCP_SERVERS: tuple[McpServer, ...] = (
    McpServer(
        "@hubspot/mcp-server", "0.4.0", "MIT", "mcp_hubspot", "HubSpot", "customer_relation",
        "CRM: contacts, companies, deals, tickets, their associations and engagements.",
        "dist/index.js", env={"PRIVATE_APP_ACCESS_TOKEN": _TOKEN}),
    McpServer(
        "airtable-mcp-server", "1.14.0", "MIT", "mcp_airtable", "Airtable", "collaboration",
        "Databases of bases, tables and records, with fields and comments.",
        "dist/main.js", env={"AIRTABLE_API_KEY": f"pat{_TOKEN}"}),
    McpServer(
        "@notionhq/notion-mcp-server", "2.5.2", "MIT", "mcp_notion", "Notion", "collaboration",
        "Workspace of pages, blocks, databases, comments and users.",
        "bin/cli.mjs", env={"NOTION_TOKEN": f"ntn_{_TOKEN}"}),
    McpServer(
        "shopify-mcp", "1.0.8", "MIT", "mcp_shopify", "Shopify", "ecommerce",
        "Online store: products, customers and orders.",
        "dist/index.js", env={"SHOPIFY_ACCESS_TOKEN": f"shpat_{_TOKEN}",
                              "MYSHOPIFY_DOMAIN": "dummy-store.myshopify.com"}),
    McpServer(
        "@tacticlaunch/mcp-linear", "1.4.3", "MIT", "mcp_linear", "Linear",
        "project_management",
        "Issue tracking: issues, projects, cycles, teams, labels and comments.",
        "dist/index.js", env={"LINEAR_API_TOKEN": f"lin_api_{_TOKEN}",
                              "MCP_LINEAR_CONFIG_DIR": "{home}/linear"}),
    McpServer(
        "@gongrzhe/server-gmail-autoauth-mcp", "1.1.11", "ISC", "mcp_gmail", "Gmail", "email",
        "Email: send, draft, read, search and label messages.",
        "dist/index.js",
        # in its config folder: a keys file in the working folder makes it print to stdout
        env={"GMAIL_OAUTH_PATH": "{home}/.gmail-mcp/gcp-oauth.keys.json",
             "GMAIL_CREDENTIALS_PATH": "{home}/.gmail-mcp/credentials.json"},
        files={".gmail-mcp/gcp-oauth.keys.json": _GOOGLE_CLIENT,
               ".gmail-mcp/credentials.json": json.dumps(_GOOGLE_TOKEN)}),
    McpServer(
        "@cocal/google-calendar-mcp", "2.6.3", "MIT", "mcp_google_calendar", "Google Calendar",
        "time_management", "Calendars and events: list, search, create, update, respond.",
        "build/index.js",
        env={"GOOGLE_OAUTH_CREDENTIALS": "{home}/gcp-oauth.keys.json",
             "GOOGLE_CALENDAR_MCP_TOKEN_PATH": "{home}/tokens.json"},
        files={"gcp-oauth.keys.json": _GOOGLE_CLIENT,
               "tokens.json": json.dumps({"normal": _GOOGLE_TOKEN})}),
    McpServer(
        "@a-bonus/google-docs-mcp", "1.11.3", "ISC", "mcp_google_workspace",
        "Google Workspace", "collaboration",
        "Google Docs, Sheets and Drive files, with Gmail drafts and Calendar events.",
        "dist/index.js",
        env={"GOOGLE_CLIENT_ID": "dummy.apps.googleusercontent.com",
             "GOOGLE_CLIENT_SECRET": "dummy", "XDG_CONFIG_HOME": "{home}/.config"},
        files={".config/google-docs-mcp/token.json": json.dumps(_GOOGLE_TOKEN)}),
    McpServer(
        "@modelcontextprotocol/server-slack", "2025.4.25", "MIT", "mcp_slack", "Slack",
        "messaging", "Team chat: channels, messages, threads, reactions and users.",
        "dist/index.js", env={"SLACK_BOT_TOKEN": f"xoxb-{_TOKEN}", "SLACK_TEAM_ID": "T0000000"}),
    McpServer(
        "@modelcontextprotocol/server-github", "2025.4.8", "MIT", "mcp_github", "GitHub",
        "developer_tools", "Code hosting: repositories, files, issues and pull requests.",
        "dist/index.js", env={"GITHUB_PERSONAL_ACCESS_TOKEN": f"ghp_{_TOKEN}"}),
    McpServer(
        "@delorenj/mcp-server-trello", "1.8.1", "MIT", "mcp_trello", "Trello",
        "project_management", "Kanban boards: boards, lists, cards, checklists, comments.",
        "build/index.js", env={"TRELLO_API_KEY": _TOKEN, "TRELLO_TOKEN": _TOKEN}),
    McpServer(
        "@roychri/mcp-server-asana", "1.8.0", "MIT", "mcp_asana", "Asana", "project_management",
        "Work management: workspaces, projects, sections, tasks and their stories.",
        "dist/index.js", env={"ASANA_ACCESS_TOKEN": _TOKEN}),
    McpServer(
        "@doist/todoist-mcp", "11.0.0", "MIT", "mcp_todoist", "Todoist", "project_management",
        "To-do lists: tasks, projects, sections, labels and comments.",
        "dist/main.js", env={"TODOIST_API_KEY": _TOKEN}),
    McpServer(
        "@mondaydotcomorg/monday-api-mcp", "3.3.0", "MIT", "mcp_monday", "monday.com",
        "project_management", "Work boards: boards, groups, items, columns and updates.",
        "dist/index.js", env={"MONDAY_TOKEN": _TOKEN}),
    McpServer(
        "mcp-discord", "1.3.4", "MIT", "mcp_discord", "Discord", "messaging",
        "Community chat: servers, channels, messages, forum posts and webhooks.",
        "build/index.js", env={"DISCORD_TOKEN": _TOKEN}),
)


def pins_digest(servers: tuple[McpServer, ...] = MCP_SERVERS) -> str:
    """A short digest of a pin list and its install date: its cache folder's name, so a
    changed pin is fetched anew and never mixed with an older install."""
    text = json.dumps([asdict(s) for s in servers] + [NPM_BEFORE], sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def mcp_document(server: McpServer, tools: list[dict[str, Any]],
                 server_info: dict[str, Any]) -> dict[str, Any]:
    """The stored document of one server: its pin, what it called itself, and its tools
    (MCP `tools/list` entries) sorted by name, so the same listing writes the same bytes."""
    return {
        "mcp_server": server.meta(),
        "server_info": {k: server_info[k] for k in ("name", "version") if k in server_info},
        "tools": sorted(tools, key=lambda tool: str(tool.get("name"))),
    }


def is_mcp_document(document: object) -> bool:
    """Whether a parsed document is a stored MCP server tool list (`mcp_document`)."""
    return isinstance(document, dict) and isinstance(document.get("mcp_server"), dict)


def load_mcp_document(document: dict[str, Any], *, deadline: Deadline = NO_DEADLINE
                      ) -> ServiceSpec:
    """One stored MCP server tool list as a ServiceSpec; SpecLoadError if bad.

    Its tools are read by the function-list loader; the service is named, titled and
    categorised by the pin, its source is `mcp:<package>@<version>` (each tool's
    `mcp:<package>@<version>#<tool>`) and its licence is the package's."""
    meta = document["mcp_server"]
    missing = [k for k in _META_KEYS if not isinstance(meta.get(k), str) or not meta[k]]
    if missing:
        raise SpecLoadError(f"`mcp_server` lacks {', '.join(missing)}")
    doc_id = doc_id_for(meta["service"])
    spec = load_function_list(document.get("tools"), doc_id, deadline=deadline)
    if spec.name != meta["service"]:
        raise SpecLoadError(f"service name {meta['service']!r} is not snake_case words")
    source = f"mcp:{meta['package']}@{meta['version']}"
    stem = f"functions:{doc_id}#"
    tools = [tool.model_copy(update={"source": source + "#" + tool.source.removeprefix(stem)})
             for tool in spec.tools]
    return spec.model_copy(update={
        "title": meta["title"], "description": meta["description"], "domain": meta["domain"],
        "source": source, "license": meta["license"], "tools": tools})


def doc_id_for(service: str) -> str:
    """The document id whose service name (text.service_name) is `service` itself:
    `mcp_google_calendar` -> `mcp.google/calendar`, as a domain-and-path id is named."""
    first, *rest = service.split("_")
    if not rest:
        return first
    return f"{first}.{rest[0]}" + (f"/{'-'.join(rest[1:])}" if rest[1:] else "")
