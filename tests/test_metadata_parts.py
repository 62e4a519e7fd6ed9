"""A cached Metadata response is put together from each topic's encoded part
(server/metadata_response.py), and a topic is encoded again only when its partition states
or the live brokers changed: byte for byte the generated encoder's response and error counts
for every version, before and after changes, and after a change of one topic of many only
that topic is encoded again."""

from __future__ import annotations

import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from josefk.protocol.authorizer import ALLOW_ALL
from josefk.protocol.errors import ErrorCode
from josefk.protocol.headers import RequestHeader
from josefk.protocol.messages.error_counts import error_counts
from josefk.protocol.messages.generated.metadata_request import MetadataRequest, MetadataRequestTopic
from josefk.protocol.messages.generated.metadata_response import (
    MetadataResponse,
    MetadataResponseBroker,
    MetadataResponsePartition,
    MetadataResponseTopic,
)
from josefk.replication.metadata_cache import MetadataCache
from josefk.server import metadata_apis
from josefk.server.config import KafkaConfig
from josefk.server.metadata_apis import MetadataApis
from josefk.server.metadata_response import encode_topic, encode_with_topics
from josefk.server.network.request_channel import Request, Response, SendResponse
from josefk.zk.zk_data import BrokerInfo, PartitionState

VERSIONS = range(MetadataResponse.MIN_VERSION, MetadataResponse.MAX_VERSION + 1)
LONG = "l" * 130  # a name over 127 bytes: a two-byte compact length


def _topic(name: str, partitions: int, error: int = 0) -> MetadataResponseTopic:
    return MetadataResponseTopic(error_code=error, name=name, topic_id=uuid.uuid4(), is_internal=name.startswith("_"),
                                 partitions=[MetadataResponsePartition(partition_index=p, leader_id=1, leader_epoch=3,
                                                                       replica_nodes=[1, 2], isr_nodes=[1],
                                                                       offline_replicas=[2])
                                             for p in range(partitions)])


@pytest.mark.unit
@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("count", [0, 3, 130])  # 130 topics: a two-byte compact count
def test_parts_encode_as_the_generated_response(version: int, count: int) -> None:
    topics = [_topic(LONG if i == 1 else f"t{i}", i % 4, ErrorCode.LEADER_NOT_AVAILABLE if i == 2 else 0)
              for i in range(count)]
    brokers = [MetadataResponseBroker(node_id=1, host="h1", port=9092, rack="r"),
               MetadataResponseBroker(node_id=2, host="h2", port=9093)]
    ops = 7 if 8 <= version <= 10 else -2147483648

    def response() -> MetadataResponse:
        return MetadataResponse(throttle_time_ms=0, brokers=brokers, cluster_id="c" if version >= 2 else None,
                                controller_id=2, cluster_authorized_operations=ops)

    whole = response()
    whole.topics = topics
    assert encode_with_topics(response(), [encode_topic(t, version) for t in topics], version) == bytes(
        whole.encode(version))


class _Owner:
    def __init__(self) -> None:
        self.sent: list[Response] = []

    def send(self, response: Response) -> None:
        self.sent.append(response)

    def hold(self, request: Any, handle: Any) -> bool:
        return False


def _states(topic: str, partitions: int, leader: int = 1, epoch: int = 0) -> list[PartitionState]:
    return [PartitionState(topic, p, leader, epoch, [1, 2], [1, 2], 1, topic_id=uuid.uuid5(uuid.NAMESPACE_DNS, topic))
            for p in range(partitions)]


class Apis:
    """MetadataApis over a cache of topics a (3 partitions), b (2) and LONG (1) on brokers 1, 2."""

    def __init__(self) -> None:
        self.cache = MetadataCache(1)
        self.brokers = [BrokerInfo(1, "h1", 9092, "r"), BrokerInfo(2, "h2", 9093)]
        self.cache.update(1, self.brokers, _states("a", 3) + _states("b", 2) + _states(LONG, 1))
        self.executor = ThreadPoolExecutor(1)
        self.apis = MetadataApis(KafkaConfig({"auto.create.topics.enable": "false"}), "cluster", self.cache,
                                 None, ALLOW_ALL, self.executor)  # type: ignore[arg-type]  # no topic admin
        self.apis._held = None

    def ask(self, version: int, topics: list[str] | None) -> tuple[bytes, dict[int, int]]:
        owner = _Owner()
        body = MetadataRequest(topics=None if topics is None else [MetadataRequestTopic(name=t) for t in topics],
                               allow_auto_topic_creation=False)
        request = Request(RequestHeader(3, version, 5, "c", 0, version >= 9), body, "conn", "127.0.0.1", owner)
        self.apis.handle_metadata(request)
        [sent] = owner.sent
        assert isinstance(sent, SendResponse) and request.error_counts is not None
        return b"".join(bytes(p) for p in sent.parts[1:]), dict(request.error_counts)

    def generated(self, version: int, topics: list[str] | None) -> tuple[bytes, dict[int, int]]:
        """The same answer the long way: the generated encoder over the whole response."""
        names = sorted(self.cache.topics) if topics is None else topics
        response = self.apis._response(self._request(version), False)
        response.topics = [self.apis._topic(self._request(version), n, ErrorCode.NONE, False) for n in names]
        return bytes(response.encode(version)), error_counts(response)

    @staticmethod
    def _request(version: int) -> Request[MetadataRequest]:
        return Request(RequestHeader(3, version, 5, "c", 0, version >= 9), MetadataRequest(), "conn", "127.0.0.1")


@pytest.mark.unit
@pytest.mark.parametrize("version", VERSIONS)
def test_cached_answers_follow_every_change(version: int, monkeypatch: pytest.MonkeyPatch) -> None:
    encoded: list[str] = []
    real = metadata_apis.encode_topic

    def counting(topic: MetadataResponseTopic, v: int) -> bytes:
        encoded.append(topic.name or "")
        return real(topic, v)

    monkeypatch.setattr(metadata_apis, "encode_topic", counting)
    s = Apis()
    all_topics: list[str] | None = None if version > 0 else []
    assert s.ask(version, all_topics) == s.generated(version, None)
    assert sorted(encoded) == sorted(["a", "b", LONG])
    assert s.ask(version, ["b"]) == s.generated(version, ["b"])  # another request: the part is reused
    assert sorted(encoded) == sorted(["a", "b", LONG])
    # a new leader for b-1: b alone is encoded again
    s.cache.update(1, s.brokers, [PartitionState("b", 1, 2, 1, [1, 2], [2], 1,
                                                 topic_id=uuid.uuid5(uuid.NAMESPACE_DNS, "b"))])
    assert s.ask(version, all_topics) == s.generated(version, None)
    assert encoded[3:] == ["b"]
    # the controller sends unchanged states again: nothing is encoded again
    s.cache.update(1, s.brokers, _states("a", 3))
    assert s.ask(version, all_topics) == s.generated(version, None)
    assert encoded[4:] == []
    # a new topic: it alone; a deleted one: gone from the answer
    s.cache.update(1, s.brokers, _states("c", 2) + [PartitionState(LONG, 0, -2, 0, [], [], 1)])
    assert s.ask(version, all_topics) == s.generated(version, None)
    assert encoded[4:] == ["c"] and LONG not in s.apis._topic_parts[version]
    # broker 2 goes: every topic's partitions name it (offline replicas), so every topic again
    s.cache.update(1, s.brokers[:1], [])
    assert s.ask(version, all_topics) == s.generated(version, None)
    assert sorted(encoded[5:]) == ["a", "b", "c"]
    # b-1's leader was broker 2: no leader, as Kafka answers (a client would look for broker 2)
    [b1] = [p for p in s.apis._topic(s._request(version), "b", ErrorCode.NONE, False).partitions
            if p.partition_index == 1]
    assert (b1.error_code, b1.leader_id) == (ErrorCode.LEADER_NOT_AVAILABLE, -1)
    s.executor.shutdown()
