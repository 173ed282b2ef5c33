"""The Parquet store: where tables live, atomic shard writes and the `stage_runs` manifest.

Layout under `COMPOWORLD_HOME` (default `./data`)::

    tables/<table>/run_id=<run id>/<stage>-<shard:05d>.parquet
    tables/stage_runs/run_id=<run id>/<stage>-<shard:05d>.parquet   (one row: the manifest)
    compoworld.duckdb                                               (views, see catalog.py)

A shard's files are first written under temporary names and then renamed, and only then
is its manifest row written. A shard without a `done` row is re-run on the next attempt
and overwrites whatever a killed attempt left, so nothing is lost and nothing doubles.

The manifest is the only index of the data: a `done` row names each file of its shard with
its row count and size (`files`), every read lists exactly those files (a file no row names
is never read), and a shard whose named files are missing, unreadable or short is not done:
the next run redoes it.
"""

from __future__ import annotations

import json
import logging
import os
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds
import pyarrow.parquet as pq

from compoworld.shards import Shard
from storage.schemas import SCHEMAS, schema_for

MANIFEST = "stage_runs"
RUN_ID = re.compile(r"[A-Za-z0-9_-]{1,100}")
# `<stage>-<shard:05d>.parquet`: anything else in a manifest folder is not a manifest row.
_MANIFEST_NAME = re.compile(r".+-\d{5,}\.parquet")

logger = logging.getLogger("compoworld.storage")


def default_home() -> Path:
    """`COMPOWORLD_HOME`, or `./data` when it is not set."""
    return Path(os.environ.get("COMPOWORLD_HOME", "data")).resolve()


def check_run_id(run_id: str) -> str:
    """`run_id` itself when it is 1 to 100 letters, digits, '-' or '_'; else a ValueError.

    A run id names folders (`run_id=<id>`): DuckDB's hive partitioning decodes `%` in them,
    and file names have a length limit, so anything else is refused before it is used."""
    if not isinstance(run_id, str) or not RUN_ID.fullmatch(run_id):
        shown = run_id if not isinstance(run_id, str) or len(run_id) <= 40 else run_id[:40] + "..."
        raise ValueError(f"invalid run id {shown!r}: use 1 to 100 letters, digits, '-' or '_'")
    return run_id


class DamagedFile(OSError):
    """A data file that a `done` manifest row names is missing or unreadable."""


def first_line(error: BaseException) -> str:
    """The first non-blank line of an error's text (DuckDB and pyarrow add context lines)."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    return lines[0] if lines else type(error).__name__


@dataclass(frozen=True, slots=True)
class ShardFile:
    """One data file that a `done` manifest row names: what was written, to check it by."""

    table: str
    run_id: str
    stage: str
    shard: int
    path: Path
    rows: int | None  # None: recorded before rows and sizes were (read the footer only)
    size: int | None

    def inspect(self) -> tuple[pq.FileMetaData | None, str | None]:
        """The file's Parquet footer and None, or None and what is wrong with the file.
        Cheap: a stat and the footer, never the data."""
        try:
            size = self.path.stat().st_size
        except FileNotFoundError:
            return None, f"{self.path} is missing"
        except OSError as error:
            return None, f"{self.path} cannot be read ({error.strerror})"
        if self.size is not None and size != self.size:
            return None, f"{self.path} has {size} bytes where {self.size} were written"
        try:
            metadata = pq.read_metadata(self.path)
        except (OSError, pa.ArrowException) as error:
            return None, f"{self.path} is not a readable Parquet file ({first_line(error)})"
        if self.rows is not None and metadata.num_rows != self.rows:
            return None, (f"{self.path} holds {metadata.num_rows} rows where {self.rows} "
                          "were written")
        return metadata, None

    def advice(self, problem: str) -> str:
        """`problem` as one sentence that says how to get the rows back."""
        return (f"{problem}: rerun stage {self.stage!r} of run {self.run_id!r} with the "
                f"command that made it, to redo shard {self.shard}")


# Manifest rows by file, with the (inode, mtime, size) they were read at: a row is replaced
# by renaming a new file over it, so an unchanged key means an unchanged row.
_ROWS: dict[str, tuple[tuple[int, int, int], dict[str, Any] | None]] = {}


def _manifest_row(path: Path, stat: os.stat_result) -> dict[str, Any] | None:
    key = (stat.st_ino, stat.st_mtime_ns, stat.st_size)
    cached = _ROWS.get(str(path))
    if cached is not None and cached[0] == key:
        return cached[1]
    try:
        rows = pq.read_table(path).to_pylist()
        row = rows[0] if len(rows) == 1 else None
        # A row must be the one its file name says, or it is no shard's row.
        if row is None or not isinstance(row.get("shard"), int) or \
                Store.file_name(str(row.get("stage")), row["shard"]) != path.name:
            row = None
        else:
            files = row.get("files")
            row["files"] = json.loads(files) if isinstance(files, str) else None
    except (OSError, ValueError, pa.ArrowException) as error:  # ArrowInvalid, bad JSON
        logger.warning("ignoring the unreadable manifest row %s (%s): its shard will be "
                       "redone", path, first_line(error))
        row = None
    _ROWS[str(path)] = (key, row)
    return row


@dataclass(frozen=True, slots=True)
class Store:
    """A store rooted at `home`; every method is safe to call from many worker processes."""

    home: Path

    @classmethod
    def open(cls, home: Path | str | None = None) -> Store:
        """The store at `home` (default: `COMPOWORLD_HOME` or `./data`)."""
        return cls(Path(home).resolve() if home is not None else default_home())

    @property
    def tables_dir(self) -> Path:
        """Folder of every table's partitions."""
        return self.home / "tables"

    @property
    def catalog_path(self) -> Path:
        """The DuckDB catalog file (views over the tables)."""
        return self.home / "compoworld.duckdb"

    def partition(self, table: str, run_id: str) -> Path:
        """Folder holding one run's files of `table`."""
        schema_for(table)
        return self.tables_dir / table / f"run_id={check_run_id(run_id)}"

    @staticmethod
    def file_name(stage: str, shard: int) -> str:
        """Name of one shard's file, the same in every table it writes."""
        return f"{stage}-{shard:05d}.parquet"

    def write_shard(self, shard: Shard, tables: dict[str, list[dict[str, Any]]]) -> int:
        """Atomically replace this shard's files in every table; returns the rows written.

        Files the shard wrote before (a killed attempt, an older input hash) are removed
        first, so a table the shard no longer fills keeps no stale rows.
        """
        for table in tables:
            schema_for(table)
        name = self.file_name(shard.stage, shard.index)
        temps: list[tuple[Path, Path]] = []
        rows = 0
        try:
            for table, records in sorted(tables.items()):
                if not records:
                    continue
                folder = self.partition(table, shard.run_id)
                folder.mkdir(parents=True, exist_ok=True)
                temp = folder / f".tmp-{name}-{os.getpid()}"
                temps.append((temp, folder / name))  # first: an interrupted write leaves half
                pq.write_table(
                    pa.Table.from_pylist(records, schema=SCHEMAS[table]),
                    temp,
                    compression="zstd",
                )
                rows += len(records)
        except BaseException:
            for temp, _ in temps:
                temp.unlink(missing_ok=True)
            raise
        written = {final for _, final in temps}
        self.remove_shard_files(shard.run_id, shard.stage, shard.index, keep=written)
        for temp, final in temps:
            os.replace(temp, final)
        return rows

    def remove_shard_files(
        self, run_id: str, stage: str, shard: int, keep: set[Path] = frozenset()
    ) -> None:
        """Delete one shard's data files and manifest row in every table (except `keep`)."""
        name = self.file_name(stage, shard)
        for table in SCHEMAS:
            path = self.partition(table, run_id) / name
            if path not in keep:
                path.unlink(missing_ok=True)

    def _written_files(self, run_id: str, name: str) -> dict[str, dict[str, int | str]]:
        """The files named `name` now in each data table, with their footers' row counts."""
        files: dict[str, dict[str, int | str]] = {}
        for table in SCHEMAS:
            path = self.partition(table, run_id) / name
            if table != MANIFEST and path.exists():
                files[table] = {"file": name, "rows": pq.read_metadata(path).num_rows,
                                "bytes": path.stat().st_size}
        return files

    def record(
        self,
        shard: Shard,
        *,
        status: str,
        rows: int,
        seconds: float,
        error: str | None = None,
    ) -> None:
        """Write the shard's manifest row (after its data files are in place).

        A `done` row names the files `write_shard` left for the shard, with their row counts
        and sizes: what later reads list, and what tells a damaged shard from a done one.
        """
        name = self.file_name(shard.stage, shard.index)
        files = self._written_files(shard.run_id, name) if status == "done" else {}
        row = {
            "stage": shard.stage,
            "shard": shard.index,
            "shards": shard.count,
            "input_hash": shard.input_hash,
            "status": status,
            "rows": rows,
            "items": len(shard.items),
            "seconds": round(seconds, 4),
            "error": error,
            "finished_at": datetime.now(UTC),
            "files": json.dumps(files, sort_keys=True),
        }
        folder = self.partition(MANIFEST, shard.run_id)
        folder.mkdir(parents=True, exist_ok=True)
        temp = folder / f".tmp-{name}-{os.getpid()}"
        pq.write_table(pa.Table.from_pylist([row], schema=SCHEMAS[MANIFEST]), temp)
        os.replace(temp, folder / name)

    def runs(self) -> list[str]:
        """Run ids that have manifest rows, sorted (folders with invalid ids are left out)."""
        folder = self.tables_dir / MANIFEST
        if not folder.is_dir():
            return []
        names = (entry.name.removeprefix("run_id=") for entry in os.scandir(folder)
                 if entry.is_dir() and entry.name.startswith("run_id="))
        return sorted(name for name in names if RUN_ID.fullmatch(name))

    def manifest_paths(self, run_id: str) -> list[tuple[Path, dict[str, Any]]]:
        """One run's readable manifest files with their rows, sorted by file name."""
        folder = self.partition(MANIFEST, run_id)
        if not folder.is_dir():
            return []
        found = []
        for entry in sorted(os.scandir(folder), key=lambda entry: entry.name):
            if not _MANIFEST_NAME.fullmatch(entry.name) or not entry.is_file():
                continue
            path = Path(entry.path)
            if (row := _manifest_row(path, entry.stat())) is not None:
                found.append((path, row))
        return found

    def manifest(self, run_id: str, stage: str) -> dict[int, dict[str, Any]]:
        """Recorded manifest rows of one stage of one run, by shard index (`files` parsed:
        table -> {file, rows, bytes}; None in rows recorded before it was)."""
        return {row["shard"]: dict(row) for _, row in self.manifest_paths(run_id)
                if row["stage"] == stage}

    def shard_files(self, run_id: str, row: dict[str, Any]) -> list[ShardFile]:
        """The data files one manifest row names (none unless it is `done`). A row recorded
        before rows named their files names the shard's files in every table."""
        if row["status"] != "done":
            return []
        files = row.get("files")
        if files is None:
            name = self.file_name(row["stage"], row["shard"])
            files = {table: {"file": name} for table in SCHEMAS if table != MANIFEST
                     and (self.partition(table, run_id) / name).exists()}
        folder = f"run_id={check_run_id(run_id)}"
        return [
            ShardFile(table=table, run_id=run_id, stage=row["stage"], shard=row["shard"],
                      path=Path(self.tables_dir, table, folder, entry["file"]),
                      rows=entry.get("rows"), size=entry.get("bytes"))
            for table, entry in sorted(files.items())
            if table in SCHEMAS and table != MANIFEST
        ]

    def done_files_by_table(self, run_id: str | None = None) -> dict[str, list[ShardFile]]:
        """Every data file that `done` manifest rows name, of one run or of every run, by
        table and sorted by path: the only files any read lists."""
        found: dict[str, list[ShardFile]] = {}
        for run in [run_id] if run_id is not None else self.runs():
            for _, row in self.manifest_paths(run):
                for file in self.shard_files(run, row):
                    found.setdefault(file.table, []).append(file)
        for files in found.values():
            files.sort(key=lambda file: file.path)
        return found

    def done_files(self, table: str, run_id: str | None = None) -> list[ShardFile]:
        """The files of `table` that `done` manifest rows name (see `done_files_by_table`)."""
        schema_for(table)
        return self.done_files_by_table(run_id).get(table, [])

    def damage(self, run_id: str, row: dict[str, Any]) -> str | None:
        """What is wrong with the files a `done` row names, or None when each exists and its
        footer holds the rows recorded."""
        read = 0
        for file in self.shard_files(run_id, row):
            metadata, problem = file.inspect()
            if problem is not None:
                return file.advice(problem)
            read += metadata.num_rows
        if row.get("files") is None and read != row["rows"]:
            name = self.file_name(row["stage"], row["shard"])
            return (f"shard {name} of run {run_id!r} holds {read} rows where {row['rows']} "
                    "were written")
        return None

    def pending(self, shards: list[Shard], *, drop_beyond: bool = True) -> list[Shard]:
        """The shards of a plan that still have to run, after dropping stale shards.

        A shard is done when its manifest row says `done` with the same input hash and the
        files it names are there with the rows recorded (stat and Parquet footer). Shards
        recorded beyond the plan's end (an older, larger plan) are removed entirely, unless
        `drop_beyond` is false: a plan that later waves extend (compose's top-ups) drops
        them itself once its last wave is planned (`drop_shards_beyond`).
        """
        if not shards:
            return []
        run_id, stage = shards[0].run_id, shards[0].stage
        if drop_beyond:
            self.drop_shards_beyond(run_id, stage, shards[-1].count)
        recorded = self.manifest(run_id, stage)
        todo = []
        for shard in shards:
            row = recorded.get(shard.index)
            if row is None or row["status"] != "done" or row["input_hash"] != shard.input_hash:
                todo.append(shard)
            elif (problem := self.damage(run_id, row)) is not None:
                logger.warning("%s; redoing it now", problem)
                todo.append(shard)
        return todo

    def drop_shards_beyond(self, run_id: str, stage: str, end: int) -> None:
        """Remove the shards of a stage numbered `end` or more (an older, larger plan's)."""
        for index in self.manifest(run_id, stage):
            if index >= end:
                self.remove_shard_files(run_id, stage, index)

    def read(
        self,
        table: str,
        run_id: str,
        *,
        columns: list[str] | None = None,
        where: tuple[str, list[Any]] | None = None,
        equal: dict[str, Any] | None = None,
        files: list[str] | None = None,
    ) -> list[dict[str, Any]]:
        """Rows of one run of a table; `where=(column, values)` keeps rows whose column is in
        values, `equal={column: value}` rows equal on every column (row groups are pruned by
        their statistics, so a shard reads little); `files` (names without `.parquet`, as
        `files()` lists them) reads only those files. Raises DamagedFile naming a file that
        is missing or unreadable."""
        chosen = [file for file in self.done_files(table, run_id)
                  if files is None or file.path.stem in files]
        if not chosen:
            return []
        condition = pc.field(where[0]).isin(where[1]) if where else None
        for column, value in (equal or {}).items():
            test = pc.field(column) == value
            condition = test if condition is None else condition & test
        try:
            dataset = ds.dataset([str(file.path) for file in chosen], format="parquet",
                                 schema=SCHEMAS[table])
            rows = dataset.to_table(columns=columns, filter=condition).to_pylist()
        except (OSError, pa.ArrowException):
            # pyarrow's error names no file: find the one that is damaged, if any.
            for file in chosen:
                _, problem = file.inspect()
                if problem is not None:
                    raise DamagedFile(file.advice(problem)) from None
            raise
        # The Arrow buffers are garbage once the rows are Python objects, but the pool
        # (mimalloc) keeps their pages: ~1 GB in a compose worker after a library load
        # (every spec's text), until handed back here (~1-10 ms).
        pa.default_memory_pool().release_unused()
        return rows

    def files(self, table: str, run_id: str) -> list[str]:
        """Names (without `.parquet`) of one run's files of a table, sorted: read them one
        at a time when the whole run would not fit in memory."""
        return sorted(file.path.stem for file in self.done_files(table, run_id))
