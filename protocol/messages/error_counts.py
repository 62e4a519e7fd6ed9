"""A response's error codes, counted as Kafka's AbstractResponse.errorCounts counts them.

Kafka writes errorCounts by hand for each response class: every partition's, topic's or
resource's error code and the top-level one, NONE included. Here one walk serves every
generated class: it counts each `error_code` field of the message and of the structs nested
in it. Which fields can lead to one is worked out once per class from the dataclass' field
types, so a Fetch response's records, aborted transactions and leader hints are not visited.
"""

from __future__ import annotations

import dataclasses
import re
import sys

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_PLANS: dict[type, tuple[bool, tuple[str, ...]]] = {}


def _plan(cls: type) -> tuple[bool, tuple[str, ...]]:
    """Whether `cls` has an error_code field, and its fields that hold structs (alone or in
    a list) with an error_code somewhere below them."""
    plan = _PLANS.get(cls)
    if plan is None:
        plan = _PLANS[cls] = _make_plan(cls)
    return plan


def _make_plan(cls: type) -> tuple[bool, tuple[str, ...]]:
    module = vars(sys.modules[cls.__module__])
    nested = []
    for f in dataclasses.fields(cls):
        types = [module.get(name) for name in _NAME.findall(str(f.type))]
        if any(isinstance(t, type) and dataclasses.is_dataclass(t) and t is not cls and _reaches_error(t)
               for t in types):
            nested.append(f.name)
    return "error_code" in cls.__dataclass_fields__, tuple(nested)  # type: ignore[attr-defined]


def _reaches_error(cls: type) -> bool:
    has_error, nested = _plan(cls)
    return has_error or bool(nested)


def error_counts(message: object) -> dict[int, int]:
    """Each error code in `message` (a generated response) and how many times it occurs."""
    counts: dict[int, int] = {}
    _count(message, counts)
    return counts


def _count(message: object, counts: dict[int, int]) -> None:
    has_error, nested = _plan(type(message))
    if has_error:
        code = message.error_code  # type: ignore[attr-defined]
        counts[code] = counts.get(code, 0) + 1
    for name in nested:
        value = getattr(message, name)
        if isinstance(value, list):
            for item in value:
                _count(item, counts)
        elif value is not None:
            _count(value, counts)
