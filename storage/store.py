"""The Parquet store: where tables live, atomic shard writes and the `stage_runs` manifest.

Layout under `COMPOWORLD_HOME` (default `./data`)::

    tables/<table>/run_id=<run id>/<stage>-<shard:05d>.parquet
    tables/stage_runs/run_id=<run id>/<stage>-<shard:05d>.parquet   (one row: the manifest)
    compoworld.duckdb                                               (views, see catalog.py)

A shard's files are first written under temporary names and then renamed, and only then
is its manifest row written. A shard without a `done` row is re-run on the next attempt
and overwrites whatever a killed attempt left, so nothing is lost and nothing doubles.
"""

from __future__ import annotations

import os
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


def default_home() -> Path:
    """`COMPOWORLD_HOME`, or `./data` when it is not set."""
    return Path(os.environ.get("COMPOWORLD_HOME", "data")).resolve()


def _check_run_id(run_id: str) -> str:
    if not run_id or "/" in run_id or run_id.startswith(".") or "=" in run_id:
        raise ValueError(f"invalid run id {run_id!r}: use letters, digits, '-' and '_'")
    return run_id


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
        return self.home / "tables"

    @property
    def catalog_path(self) -> Path:
        return self.home / "compoworld.duckdb"

    def partition(self, table: str, run_id: str) -> Path:
        """Folder holding one run's files of `table`."""
        schema_for(table)
        return self.tables_dir / table / f"run_id={_check_run_id(run_id)}"

    @staticmethod
    def file_name(stage: str, shard: int) -> str:
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
                pq.write_table(
                    pa.Table.from_pylist(records, schema=SCHEMAS[table]),
                    temp,
                    compression="zstd",
                )
                temps.append((temp, folder / name))
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

    def record(
        self,
        shard: Shard,
        *,
        status: str,
        rows: int,
        seconds: float,
        error: str | None = None,
    ) -> None:
        """Write the shard's manifest row (after its data files are in place)."""
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
        }
        folder = self.partition(MANIFEST, shard.run_id)
        folder.mkdir(parents=True, exist_ok=True)
        name = self.file_name(shard.stage, shard.index)
        temp = folder / f".tmp-{name}-{os.getpid()}"
        pq.write_table(pa.Table.from_pylist([row], schema=SCHEMAS[MANIFEST]), temp)
        os.replace(temp, folder / name)

    def manifest(self, run_id: str, stage: str) -> dict[int, dict[str, Any]]:
        """Recorded manifest rows of one stage of one run, by shard index."""
        folder = self.partition(MANIFEST, run_id)
        rows: dict[int, dict[str, Any]] = {}
        for path in sorted(folder.glob(f"{stage}-*.parquet")):
            for row in pq.read_table(path).to_pylist():
                rows[row["shard"]] = row
        return rows

    def pending(self, shards: list[Shard]) -> list[Shard]:
        """The shards of a plan that still have to run, after dropping stale shards.

        A shard is done when its manifest row says `done` with the same input hash. Shards
        recorded beyond the plan's end (an older, larger plan) are removed entirely.
        """
        if not shards:
            return []
        run_id, stage = shards[0].run_id, shards[0].stage
        recorded = self.manifest(run_id, stage)
        for index in recorded:
            if index >= len(shards):
                self.remove_shard_files(run_id, stage, index)
        return [
            shard
            for shard in shards
            if (row := recorded.get(shard.index)) is None
            or row["status"] != "done"
            or row["input_hash"] != shard.input_hash
        ]

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
        `files()` lists them) reads only those files."""
        folder = self.partition(table, run_id)
        paths = sorted(str(path) for path in folder.glob("*.parquet")
                       if files is None or path.stem in files)
        if not paths:
            return []
        dataset = ds.dataset(paths, format="parquet", schema=SCHEMAS[table])
        condition = pc.field(where[0]).isin(where[1]) if where else None
        for column, value in (equal or {}).items():
            test = pc.field(column) == value
            condition = test if condition is None else condition & test
        return dataset.to_table(columns=columns, filter=condition).to_pylist()

    def files(self, table: str, run_id: str) -> list[str]:
        """Names (without `.parquet`) of one run's files of a table, sorted: read them one
        at a time when the whole run would not fit in memory."""
        return sorted(path.stem for path in self.partition(table, run_id).glob("*.parquet"))
