"""Text helpers for loaders: clean descriptions, service names and tool names.

Service names (`service_name`) are a readable slug of the document id, made injective:

- an id of the *canonical* shape `<label>`, `<label>.<label>` or
  `<label>.<label>/<word>[-<word>...]` (lowercase letters and digits only) maps to its
  words joined by `_`, e.g. `amazonaws.com/acm` -> `amazonaws_com_acm`, `xkcd.com` ->
  `xkcd_com`, `crm` -> `crm`. The slug gives the id back (first `_` is `.`, second is `/`,
  the rest are `-`), so no two canonical ids share a slug.
- any other id (capitals, `_`, spaces, three-label domains, ...) maps to its words, cut to
  50 characters, plus `_` and 8 hex digits of the SHA-256 of the id, e.g.
  `adyen.com/AccountService` -> `adyen_com_account_service_3b8e...`. Canonical slugs never
  end in an 8-hex-digit word (such ids are hashed too), so the two kinds cannot meet;
  two hashed ids meet only on a 32-bit hash collision.

Service names never contain `__`, so `service__tool` always splits at the first `__`.
"""

from __future__ import annotations

import hashlib
import html
import re
from functools import lru_cache

from compoworld.graph.semtypes import split_words

SERVICE_NAME_RE = re.compile(r"^[a-z0-9]+(_[a-z0-9]+)*$")
TOOL_NAME_RE = re.compile(r"^[a-zA-Z0-9_-]{1,128}$")
MAX_SERVICE_CHARS = 60
MAX_TOOL_PART_CHARS = 60  # 60 + `__` + 60 + a `_NN` dedupe suffix stays under 128

_CANONICAL = re.compile(r"^[a-z0-9]+(\.[a-z0-9]+(/[a-z0-9]+(-[a-z0-9]+)*)?)?$")
_HEX_WORD = re.compile(r"(^|_)[0-9a-f]{8}$")
_BLOCK_TAG = re.compile(r"</?(p|br|div|li|ul|ol|tr|td|h[1-6]|table|pre)\b[^>]{0,200}>", re.I)
_TAG = re.compile(r"</?[a-zA-Z][^>]{0,200}>")
_SPACE_BEFORE_STOP = re.compile(r"\s+([.,;:!?])(?=\s|$)")
_MD_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_MD_MARK = re.compile(r"(\*\*|__|`+|^#+\s*|^\s*[-*>]\s+)", re.MULTILINE)
_SPACE = re.compile(r"\s+")
_MARKUP = re.compile(r"[<>\[\]*_`#&\n\r\t\f\v]|\s\s|\s[.,;:!?]|^[-*>]")
_SENTENCE_END = re.compile(r"[.!?](?=\s)")


def service_name(doc_id: str) -> str:
    """Injective snake_case service name for a document id (see the module docstring)."""
    words = "_".join(split_words(doc_id)) if not _CANONICAL.match(doc_id) else None
    if words is None:
        slug = re.sub(r"[./-]", "_", doc_id)
        if len(slug) <= MAX_SERVICE_CHARS and not _HEX_WORD.search(slug):
            return slug
        words = slug
    digest = hashlib.sha256(doc_id.encode("utf-8")).hexdigest()[:8]
    stem = words[: MAX_SERVICE_CHARS - 9].strip("_")
    return f"{stem}_{digest}" if stem else f"s_{digest}"


def snake_words(text: str, limit: int = MAX_TOOL_PART_CHARS) -> str:
    """Snake-case an identifier; past `limit` characters keep its first and last words.

    The end of a long operationId tells operations apart (`..._as_org_contact` vs
    `..._as_user`), so middle words go first: `users_..._item_as_org_contact`.
    """
    words = split_words(text)
    full = "_".join(words)
    if len(full) <= limit:
        return full
    head, tail = words[0][:limit], []
    for word in reversed(words[1:]):
        if len(head) + sum(len(w) + 1 for w in tail) + len(word) + 1 > limit:
            break
        tail.insert(0, word)
    return "_".join([head, *tail])


def clean_text(text: object, limit: int = 500) -> str:
    """Strip light markdown/HTML, collapse whitespace, trim at a sentence or word boundary."""
    if not isinstance(text, str) or not text:
        return ""
    return _clean(text, limit)


@lru_cache(maxsize=1 << 16)  # large documents repeat the same descriptions many times
def _clean(text: str, limit: int) -> str:
    if not _MARKUP.search(text):  # plain text (most descriptions): only trim
        return trim(text.strip(), limit)
    text = _MD_MARK.sub("", _MD_LINK.sub(r"\1", text))
    text = _TAG.sub("", _BLOCK_TAG.sub(" ", text))
    text = _SPACE.sub(" ", html.unescape(text)).strip()
    return trim(_SPACE_BEFORE_STOP.sub(r"\1", text), limit)


def trim(text: str, limit: int) -> str:
    """Cut text to at most `limit` characters, at a sentence end if one is past halfway."""
    if len(text) <= limit:
        return text
    head = text[: limit + 1]
    ends = [m.end() for m in _SENTENCE_END.finditer(head)]
    if ends and ends[-1] >= limit // 2:
        return head[: ends[-1]]
    cut = head[:limit - 3].rsplit(" ", 1)[0]
    return cut.rstrip(" ,;:") + "..."


def join_text(summary: object, description: object, limit: int = 500) -> str:
    """Summary then description (unless the description repeats the summary), cleaned."""
    first, second = clean_text(summary, 10_000), clean_text(description, 10_000)
    if not first or second.startswith(first):
        return trim(second or first, limit)
    if not second or first.startswith(second):
        return trim(first, limit)
    stop = "" if first[-1] in ".!?:" else "."
    return trim(f"{first}{stop} {second}", limit)
