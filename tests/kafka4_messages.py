"""kafka-python 3's message classes (as the differential harness builds and compares them) for
the versions Kafka 4.4 added after 3.9: classes of the same kind made from Kafka 4.4.0's own
specs (protocol/messages/specs/4.4.0), used where kafka-python's 3.9 schemas stop."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from kafka.protocol.api_header import ResponseClassRegistry
from kafka.protocol.api_message import ApiMessage
from kafka.protocol.schemas.load_json import _resolve_common_structs

from josefk.cli import kafka_messages
from josefk.protocol.messages import api as generated

SPECS = Path(__file__).resolve().parents[1] / "protocol" / "messages" / "specs" / "4.4.0"
_COMMENTS = re.compile(r"(?m)((?:^\s*//.*\n?)+)")


def _spec(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(_COMMENTS.sub("", (SPECS / f"{name}.json").read_text()))
    structs = {s["name"]: s["fields"] for s in data.get("commonStructs", [])}
    if structs:
        _resolve_common_structs(data.get("fields", []), structs)
    return data


@cache
def _kafka4_class(name: str) -> type[ApiMessage]:
    def json_patch(_metacls: type, _json: dict[str, Any]) -> dict[str, Any]:
        return _spec(name)

    # kafka-python registers every response class it makes as the one its clients decode that API
    # key with: keep its own registered, or every client later in this process reads 4.4's layouts.
    registry = ResponseClassRegistry._response_class_registry
    saved = dict(registry)
    made = type(name, (ApiMessage,), {"json_patch": classmethod(json_patch), "__slots__": ()})
    registry.clear()
    registry.update(saved)
    return made


def request_class(api_key: int, version: int) -> type[ApiMessage]:
    """kafka-python's request class, or Kafka 4.4.0's where `version` is newer than it knows."""
    cls = kafka_messages.request_class(api_key)
    if not issubclass(cls, ApiMessage) or version <= cls.max_version:  # josefk's own classes cover all
        return cls
    return _kafka4_class(generated.request_class(api_key).__name__)


def response_class(api_key: int, version: int) -> type[ApiMessage]:
    cls = kafka_messages.response_class(api_key)
    if not issubclass(cls, ApiMessage) or version <= cls.max_version:
        return cls
    return _kafka4_class(generated.response_class(api_key).__name__)
