"""Version numbers — "12.10", "580.159.04", "13.1.0" — read here and nowhere else.

Two readings, each for its job:

- parse_version: the grammar of a version (numbers joined by dots and nothing else), which the rules share with
  harness/rules.c (atlas_version_compare): what compares, ranges or matches versions uses it;
- version_numbers: the numbers a label holds, whatever surrounds them ("error_strings_12.4.tsv", "13.0 (header)"),
  for ordering names and columns.

Everything that compares, sorts or matches versions goes through one of the functions below.
"""
import functools
import re


@functools.lru_cache(maxsize=None)
def parse_version(text):
    """'12.4' -> (12, 4); '580.159.04' -> (580, 159, 4); anything else ('none', '?', '12.x', ' 12.4') -> None."""
    parts = str(text if text is not None else "").split(".")
    if not all(p.isdigit() and p.isascii() for p in parts):
        return None
    return tuple(int(p) for p in parts)


@functools.lru_cache(maxsize=None)
def version_numbers(text):
    """The numbers in a label, in order: '12.10' -> (12, 10), 'error_strings_12.4.tsv' -> (12, 4); () where there is
    none ('none', '?')."""
    return tuple(int(p) for p in re.findall(r"\d+", str(text or "")))


def version_key(text):
    """A sort key: versions in numeric order (11.8 < 12.4 < 12.10 < 13.0), what holds no number ('none', '?') first."""
    return version_numbers(text)


def range_key(text):
    """A sort key for the steps of a version range: versions in numeric order, what is not a version last."""
    parsed = parse_version(text)
    return (0, parsed) if parsed is not None else (1, str(text))


def compare_versions(a, b):
    """-1, 0 or 1 comparing two versions number by number, a missing number read as 0 ('12' equals '12.0'); None if
    either is not a version (harness/rules.c's atlas_version_compare)."""
    pa, pb = parse_version(a), parse_version(b)
    if pa is None or pb is None:
        return None
    width = max(len(pa), len(pb))
    pa, pb = pa + (0,) * (width - len(pa)), pb + (0,) * (width - len(pb))
    return (pa > pb) - (pa < pb)


def starts_with(have, want):
    """Does version `have` begin with the numbers the user gave (--driver 535 is any 535.x; --cuda 12.4 any 12.4.x)?"""
    want = version_numbers(want)
    return version_numbers(have)[:len(want)] == want
