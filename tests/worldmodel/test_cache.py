"""The response cache: keys, copies, and JSON-lines persistence."""

from __future__ import annotations

from compoworld.worldmodel import ResponseCache, cache_key


def test_keys_depend_on_seed_tool_and_arguments_not_their_order():
    key = cache_key(1, "t", {"a": 1, "b": [1, 2]})
    assert key == cache_key(1, "t", {"b": [1, 2], "a": 1})
    assert len({key, cache_key(2, "t", {"a": 1, "b": [1, 2]}),
                cache_key(1, "u", {"a": 1, "b": [1, 2]}), cache_key(1, "t", {"a": 2})}) == 4
    assert cache_key(1, "t", None) == cache_key(1, "t", {})


def test_get_returns_fresh_copies():
    cache = ResponseCache()
    cache.put("k", {"items": [1]})
    cache.get("k")["items"].append(2)
    assert cache.get("k") == {"items": [1]}
    assert "k" in cache and len(cache) == 1
    assert cache.get("missing", "none") == "none"
    cache.put("null", None)
    assert "null" in cache and cache.get("null", "default") is None


def test_answers_persist_and_the_first_line_wins(tmp_path):
    path = tmp_path / "cache" / "answers.jsonl"
    with ResponseCache(path) as cache:
        cache.put("a", {"x": 1})
        cache.put("b", [1, "two"])
    with path.open("ab") as handle:  # a second writer's duplicate, then a torn line
        handle.write(b'{"key":"a","value":{"x":99}}\n{"key":"c","val')
    reloaded = ResponseCache(path)
    assert reloaded.get("a") == {"x": 1} and reloaded.get("b") == [1, "two"]
    assert "c" not in reloaded and len(reloaded) == 2
