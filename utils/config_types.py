"""Kafka's ConfigDef.parseType checks, worded as its ConfigException: a broker that will not
start on `num.partitions=abc` says `Invalid value abc for configuration num.partitions: Not a
number of type INT`, not Python's int() text."""

from __future__ import annotations

import re

_INTEGER = re.compile(r"[+-]?\d+")  # Java's Long.parseLong: no underscores, no spaces inside
_RANGES = {"SHORT": 2**15, "INT": 2**31, "LONG": 2**63}


def invalid_value(name: str, raw: str, problem: str) -> str:
    """ConfigException(name, value, message)'s text."""
    return f"Invalid value {raw} for configuration {name}: {problem}"


def type_problem(type_name: str, raw: str) -> str | None:
    """Why `raw` is not a value of ConfigDef.Type `type_name` (None: it is one, or its type has
    no parse check: STRING, LIST, PASSWORD). Kafka trims before parsing, as here."""
    text = raw.strip()
    if type_name in _RANGES:
        limit = _RANGES[type_name]
        if _INTEGER.fullmatch(text) is None or not -limit <= int(text) < limit:
            return f"Not a number of type {type_name}"  # Java's parse overflows with the same error
    elif type_name == "DOUBLE":
        try:
            float(text)
        except ValueError:
            return "Not a number of type DOUBLE"
    elif type_name == "BOOLEAN" and text.lower() not in ("true", "false"):
        return "Expected value to be either true or false"
    return None
