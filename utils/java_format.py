"""Java's text forms of numbers, where josefk must print what Kafka (a JVM) prints."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import TypeVar


def java_double(x: float) -> str:
    """Java's Double.toString: 50.0, 0.001, and from 1e7 (or below 1e-3) 1.0E7, 1.0E-4."""
    if x != x:
        return "NaN"
    if x in (float("inf"), float("-inf")):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0 or 1e-3 <= abs(x) < 1e7:
        text = repr(float(x))
        return text if "." in text else text + ".0"
    sign, digits, exp = Decimal(repr(float(x))).normalize().as_tuple()
    assert isinstance(exp, int)
    mantissa = "".join(map(str, digits))
    return f"{'-' if sign else ''}{mantissa[0]}.{mantissa[1:] or '0'}E{len(mantissa) - 1 + exp}"


def java_string_hash(text: str) -> int:
    """java.lang.String.hashCode (over UTF-16 code units, as Java's strings hold them), unsigned."""
    h = 0
    for i in range(0, len(data := text.encode("utf-16-be")), 2):
        h = (31 * h + (data[i] << 8 | data[i + 1])) & 0xFFFFFFFF
    return h


def hash_map_order(keys: list[str], initial_capacity: int = 16) -> list[str]:
    """The order a java.util.HashMap of String keys iterates them (see hashed_map_order)."""
    return hashed_map_order(keys, java_string_hash, initial_capacity)


T = TypeVar("T")


def hashed_map_order(keys: list[T], hash_code: Callable[[T], int], initial_capacity: int = 16) -> list[T]:
    """The order a java.util.HashMap iterates keys with these hashCodes: by bucket of its final
    table (the initial capacity rounded up to a power of two, doubled while more than 3/4
    full; `new HashMap<>(n)`), a bucket's keys in insertion order. Kafka's tools print some
    maps as they come (topic configs, log dirs), and its APIs answer in such orders."""
    capacity = 1
    while capacity < initial_capacity:
        capacity *= 2
    while len(keys) > capacity * 3 // 4:
        capacity *= 2

    def bucket(key: T) -> int:
        h = hash_code(key) & 0xFFFFFFFF
        return (h ^ (h >> 16)) & (capacity - 1)

    return sorted(keys, key=bucket)
