"""kafka-python 3's runtime message classes by API key, for the tools, tests and benchmarks
that speak to brokers as a client and build requests the way kafka-python does (nested
classes, every version), and the generated classes for the controller RPCs kafka-python lacks.
The broker never imports this: it decodes and answers with
josefk's generated classes (josefk.protocol.messages)."""

from __future__ import annotations

from typing import TypeVar

import kafka.protocol.admin
import kafka.protocol.consumer
import kafka.protocol.metadata
import kafka.protocol.producer  # noqa: F401  (imports register every message class)
from kafka.protocol.api_message import ApiMessage

from josefk.protocol.messages import api as generated

__all__ = ["ApiMessage", "request_class", "response_class"]

T = TypeVar("T")


def _all_subclasses(cls: type[T]) -> list[type[T]]:
    found: list[type[T]] = []
    for sub in cls.__subclasses__():
        found.append(sub)
        found.extend(_all_subclasses(sub))
    return found


def _index() -> tuple[dict[int, type[ApiMessage]], dict[int, type[ApiMessage]]]:
    requests: dict[int, type[ApiMessage]] = {}
    responses: dict[int, type[ApiMessage]] = {}
    for cls in _all_subclasses(ApiMessage):
        if getattr(cls, "_class_version", None) is not None or getattr(cls, "_json", None) is None:
            continue
        (requests if cls.is_request() else responses)[cls.API_KEY] = cls
    return requests, responses


_REQUESTS, _RESPONSES = _index()


def request_class(api_key: int) -> type[ApiMessage]:
    """kafka-python's class; for the APIs it lacks (the ZooKeeper-era controller RPCs), the
    generated one, which takes the same keyword fields and encode/decode calls."""
    found = _REQUESTS.get(api_key)
    return found if found is not None else generated.request_class(api_key)


def response_class(api_key: int) -> type[ApiMessage]:
    found = _RESPONSES.get(api_key)
    return found if found is not None else generated.response_class(api_key)
