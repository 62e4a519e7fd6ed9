"""The ZooKeeper-era controller RPCs: LeaderAndIsr, StopReplica, UpdateMetadata (controller to
broker), ControlledShutdown, AlterPartition and AllocateProducerIds (broker to controller).

Kafka 4 dropped the first four, and kafka-python 3 has neither AlterPartition nor
AllocateProducerIds, so josefk carries its own
definitions (protocol/schemas/*.json, Kafka's field layout) and builds message classes
with the same generated codecs as every other API.
"""

from __future__ import annotations

from kafka.protocol.api_message import ApiMessage

from josefk.protocol import schemas

# ApiMessage.__init_subclass__ takes load_json, but kafka-python ships no types, so mypy checks
# the keyword against object.__init_subclass__; the class statement is how its messages are declared.

class LeaderAndIsrRequest(ApiMessage, load_json=schemas): pass  # type: ignore[call-arg]  # noqa: E701
class LeaderAndIsrResponse(ApiMessage, load_json=schemas): pass  # type: ignore[call-arg]  # noqa: E701
class StopReplicaRequest(ApiMessage, load_json=schemas): pass  # type: ignore[call-arg]  # noqa: E701
class StopReplicaResponse(ApiMessage, load_json=schemas): pass  # type: ignore[call-arg]  # noqa: E701
class UpdateMetadataRequest(ApiMessage, load_json=schemas): pass  # type: ignore[call-arg]  # noqa: E701
class UpdateMetadataResponse(ApiMessage, load_json=schemas): pass  # type: ignore[call-arg]  # noqa: E701
class ControlledShutdownRequest(ApiMessage, load_json=schemas): pass  # type: ignore[call-arg]  # noqa: E701
class ControlledShutdownResponse(ApiMessage, load_json=schemas): pass  # type: ignore[call-arg]  # noqa: E701
class AlterPartitionRequest(ApiMessage, load_json=schemas): pass  # type: ignore[call-arg]  # noqa: E701
class AlterPartitionResponse(ApiMessage, load_json=schemas): pass  # type: ignore[call-arg]  # noqa: E701
class AllocateProducerIdsRequest(ApiMessage, load_json=schemas): pass  # type: ignore[call-arg]  # noqa: E701
class AllocateProducerIdsResponse(ApiMessage, load_json=schemas): pass  # type: ignore[call-arg]  # noqa: E701
