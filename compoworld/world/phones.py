"""National phone numbers that have their country's length and leading digits.

E.164 numbers are the calling code and a *national significant number* whose length and
leading digits each country fixes: the UK's mobiles are `7` and nine digits, Portugal's
`9[1236]` and seven, Singapore's `8`/`9` and seven, a US number an area code and an
exchange neither starting with 0 or 1. `SHAPES` writes a few shapes per country of the
world's places (`words.COUNTRIES`), mobiles first, the capital's or main city's landlines
after: `#` is any digit, `N` a digit 2-9, `L` a landline's first digit 2-5 where a 9
there makes a mobile (Sao Paulo's `11 9...`). `national_number` draws one with the
caller's rng, so a seed still gives the same world; `is_mobile` says whether a national
number has one of its country's mobile shapes.
"""

from __future__ import annotations

import random
import re

# country: (mobile shapes, landline shapes)
SHAPES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "US": (("212N######", "646N######", "917N######", "415N######", "628N######",
            "312N######", "773N######"), ("212N######", "415N######", "312N######")),
    "CA": (("416N######", "647N######", "437N######"), ("416N######",)),
    "GB": (("74########", "75########", "77########", "78########", "79########"),
           ("207#######", "203#######")),
    "FR": (("6########", "7########"), ("1N#######",)),
    "DE": (("151########", "160########", "170########", "176########"), ("30N#######",)),
    "ES": (("6########", "7########"), ("91N######",)),
    "IT": (("32########", "33########", "34########", "39########"), ("06########",)),
    "NL": (("6########",), ("20N######",)),
    "SE": (("70#######", "72#######", "73#######", "76#######"), ("8N#######",)),
    "PT": (("91#######", "92#######", "93#######", "96#######"), ("21N######",)),
    "JP": (("90########", "80########", "70########"), ("3N#######",)),
    "KR": (("10########",), ("2N#######",)),
    "SG": (("8#######", "9#######"), ("6#######",)),
    "AU": (("4########",), ("2N#######",)),
    "IN": (("9#########", "8#########", "7#########"), ("22N#######",)),
    "BR": (("119########",), ("11L#######",)),
    "MX": (("55N#######",), ("55N#######",)),
    "NG": (("803#######", "806#######", "703#######", "813#######", "903#######"),
           ("1N#######",)),
    "KE": (("71#######", "72#######", "79#######", "11#######"), ("20N######",)),
    "CH": (("76#######", "77#######", "78#######", "79#######"), ("44N######",)),
    "IE": (("83#######", "85#######", "86#######", "87#######", "89#######"),
           ("1N######",)),
    "PL": (("50#######", "51#######", "60#######", "69#######", "72#######"),
           ("22N######",)),
}
# The length of each country's national numbers (`len` of its shapes), for checks.
LENGTHS = {country: frozenset(len(s) for group in shapes for s in group)
           for country, shapes in SHAPES.items()}


def national_number(rng: random.Random, country: str, landline: bool = False) -> str:
    """The national significant number of a phone in `country` (ISO alpha-2): a mobile,
    or with `landline` an office line in its main city; ten digits where the country is
    not listed."""
    shapes = SHAPES.get(country)
    shape = rng.choice(shapes[1 if landline else 0]) if shapes else "N#########"
    return "".join(str(rng.randint(2, 9)) if c == "N" else str(rng.randint(2, 5))
                   if c == "L" else str(rng.randint(0, 9)) if c == "#" else c for c in shape)


_DIGITS = {"#": r"\d", "N": "[2-9]", "L": "[2-5]"}
_MOBILES = {country: re.compile("|".join("".join(_DIGITS.get(c, c) for c in shape)
                                         for shape in shapes[0]))
            for country, shapes in SHAPES.items()}


def is_mobile(national: str, country: str) -> bool:
    """Whether `national` (a national significant number of `country`) is a mobile; True
    where the country's shapes are unknown."""
    pattern = _MOBILES.get(country)
    return pattern is None or pattern.fullmatch(national) is not None
