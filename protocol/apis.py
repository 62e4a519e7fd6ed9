"""Which APIs josefk speaks, and in which versions.

ApiKey and the flexible versions come from josefk's generated message layer
(protocol/messages, Kafka 3.9.2's and 4.4.0's JSON specs merged), which the broker decodes requests with.
The advertised ranges follow Apache Kafka 3.9 (shared/reference/kafka-3.9-apis.tsv),
lowered only where josefk does not implement a version's feature.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from josefk.protocol.messages import api as messages
from josefk.protocol.messages.generated.registry import BROKER_VERSIONS, ApiKey

__all__ = ["KAFKA_39_VERSIONS", "KAFKA_4_RAISED", "KAFKA_4_VERSIONS", "ApiKey", "ApiVersions", "advertised",
           "is_flexible"]

# Kafka 3.9's ranges for the APIs josefk implements; a broker advertises those it has a
# handler for (ApiVersions below).
KAFKA_39_VERSIONS: dict[ApiKey, tuple[int, int]] = {
    ApiKey.Produce: (0, 11),
    ApiKey.Fetch: (0, 17),
    ApiKey.ListOffsets: (0, 9),
    ApiKey.Metadata: (0, 12),
    ApiKey.LeaderAndIsr: (0, 7),
    ApiKey.StopReplica: (0, 4),
    ApiKey.UpdateMetadata: (0, 8),
    ApiKey.ControlledShutdown: (1, 3),  # 3.9 has 0-3; v0's request header lacks the client id
    ApiKey.OffsetCommit: (0, 9),
    ApiKey.OffsetFetch: (0, 9),
    ApiKey.FindCoordinator: (0, 6),
    ApiKey.JoinGroup: (0, 9),
    ApiKey.Heartbeat: (0, 4),
    ApiKey.LeaveGroup: (0, 5),
    ApiKey.SyncGroup: (0, 5),
    ApiKey.DescribeGroups: (0, 5),
    ApiKey.ListGroups: (0, 5),
    ApiKey.ApiVersions: (0, 4),
    ApiKey.CreateTopics: (0, 7),
    ApiKey.DeleteTopics: (0, 6),
    ApiKey.DeleteRecords: (0, 2),
    ApiKey.InitProducerId: (0, 5),
    ApiKey.AddPartitionsToTxn: (0, 5),
    ApiKey.AddOffsetsToTxn: (0, 4),
    ApiKey.EndTxn: (0, 4),
    ApiKey.TxnOffsetCommit: (0, 4),
    ApiKey.OffsetForLeaderEpoch: (0, 4),
    ApiKey.DescribeConfigs: (0, 4),
    ApiKey.AlterConfigs: (0, 2),
    ApiKey.CreatePartitions: (0, 3),
    ApiKey.DeleteGroups: (0, 2),
    ApiKey.ElectLeaders: (0, 2),
    ApiKey.IncrementalAlterConfigs: (0, 1),
    ApiKey.AlterPartitionReassignments: (0, 0),
    ApiKey.ListPartitionReassignments: (0, 0),
    ApiKey.OffsetDelete: (0, 0),
    ApiKey.DescribeCluster: (0, 1),
    ApiKey.DescribeTransactions: (0, 0),
    ApiKey.ListTransactions: (0, 1),
    ApiKey.WriteTxnMarkers: (0, 1),
    ApiKey.DescribeProducers: (0, 0),
    ApiKey.DescribeLogDirs: (0, 4),
    ApiKey.DescribeAcls: (0, 3),
    ApiKey.CreateAcls: (0, 3),
    ApiKey.DeleteAcls: (0, 3),
    ApiKey.SaslHandshake: (0, 1),
    ApiKey.SaslAuthenticate: (0, 2),
    ApiKey.DescribeUserScramCredentials: (0, 0),
    ApiKey.AlterUserScramCredentials: (0, 0),
    ApiKey.AlterReplicaLogDirs: (0, 2),
    ApiKey.DescribeClientQuotas: (0, 1),
    ApiKey.AlterClientQuotas: (0, 1),
    ApiKey.AlterPartition: (0, 3),
    ApiKey.AllocateProducerIds: (0, 0),
    ApiKey.UpdateFeatures: (0, 1),
    ApiKey.CreateDelegationToken: (0, 3),
    ApiKey.RenewDelegationToken: (0, 2),
    ApiKey.ExpireDelegationToken: (0, 2),
    ApiKey.DescribeDelegationToken: (0, 3),
    ApiKey.ConsumerGroupHeartbeat: (0, 1),  # KIP-848, Kafka 4.4's ranges (its specs vendored for these two)
    ApiKey.ConsumerGroupDescribe: (0, 1),
    ApiKey.GetTelemetrySubscriptions: (0, 0),  # Kafka 3.9 serves these four on KRaft brokers only
    ApiKey.PushTelemetry: (0, 0),
    ApiKey.ListConfigResources: (0, 0),
    ApiKey.DescribeTopicPartitions: (0, 0),
    ApiKey.ShareGroupHeartbeat: (1, 1),  # KIP-932 share groups, Kafka 4.4's ranges
    ApiKey.ShareGroupDescribe: (1, 1),
    ApiKey.ShareFetch: (1, 2),
    ApiKey.ShareAcknowledge: (1, 2),
    ApiKey.DescribeShareGroupOffsets: (0, 1),
    ApiKey.AlterShareGroupOffsets: (0, 0),
    ApiKey.DeleteShareGroupOffsets: (0, 0),
    ApiKey.InitializeShareGroupState: (0, 0),  # KIP-932's share coordinator RPCs, Kafka 4.4's ranges
    ApiKey.ReadShareGroupState: (0, 0),
    ApiKey.WriteShareGroupState: (0, 1),
    ApiKey.DeleteShareGroupState: (0, 0),
    ApiKey.ReadShareGroupStateSummary: (0, 1),
    ApiKey.StreamsGroupHeartbeat: (0, 1),  # KIP-1071, Kafka 4.4's ranges
    ApiKey.StreamsGroupDescribe: (0, 1),
    ApiKey.StreamsGroupTopologyDescriptionUpdate: (0, 0),  # KIP-1331, as Kafka 4.4 without a description plugin
}

# Kafka 4.4.0's ranges, as a 4.4 broker advertises them (its specs' validVersions, less a
# latestVersionUnstable newest version; generated into the registry from specs/4.4.0/). Not what
# josefk advertises: the target of the APIs raised to Kafka 4's versions as they are implemented.
KAFKA_4_VERSIONS: dict[ApiKey, tuple[int, int]] = {ApiKey(k): r for k, r in BROKER_VERSIONS["4.4.0"].items()}

# The APIs josefk serves beyond Kafka 3.9's newest version, up to Kafka 4.4's (issue 28): the
# newest version advertised. Kafka 3.9's older versions stay as they were, so old clients see no change.
KAFKA_4_RAISED: dict[ApiKey, int] = {
    ApiKey.Produce: 13,
    ApiKey.Fetch: 18,
    ApiKey.ListOffsets: 11,
    ApiKey.Metadata: 13,
    ApiKey.OffsetCommit: 10,
    ApiKey.OffsetFetch: 10,
    ApiKey.ApiVersions: 5,
    ApiKey.DescribeGroups: 6,
    ApiKey.DeleteGroups: 3,
    ApiKey.DescribeCluster: 2,
    ApiKey.ListTransactions: 2,
    ApiKey.DescribeLogDirs: 5,
    ApiKey.AlterPartitionReassignments: 1,
    ApiKey.ListConfigResources: 1,
    ApiKey.EndTxn: 5,  # transactions v2 (KIP-890 part 2)
    ApiKey.TxnOffsetCommit: 6,  # topic ids (KIP-1319)
    ApiKey.WriteTxnMarkers: 2,
}


def advertised(api: ApiKey) -> tuple[int, int]:
    """The (min, max) version josefk advertises for an API it serves."""
    low, high = KAFKA_39_VERSIONS[api]
    return low, max(high, KAFKA_4_RAISED.get(api, high))


@dataclass(frozen=True)
class ApiVersions:
    """The API versions one broker advertises (Kafka's ApiVersionManager): `advertised`'s
    range for each API it has a handler for. Built once at start-up and read-only, so the
    Processors, which reject what is not in it, and the ApiVersions response agree."""

    ranges: Mapping[int, tuple[int, int]]  # api key -> (min, max) version

    @classmethod
    def for_apis(cls, api_keys: Iterable[int]) -> ApiVersions:
        return cls(MappingProxyType({int(key): advertised(ApiKey(key)) for key in sorted(api_keys)}))

    def range_of(self, api_key: int) -> tuple[int, int] | None:
        """(min, max) version of an advertised API; None if it is not advertised."""
        return self.ranges.get(api_key)


def is_flexible(api_key: int, version: int) -> bool:
    """Whether this request version uses compact types, tagged fields and header v2."""
    return messages.request_class(api_key).is_flexible(version)
