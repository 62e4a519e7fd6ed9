"""`josefk broker-api-versions`: Kafka's kafka-broker-api-versions.sh (ApiVersions of every broker)."""

from __future__ import annotations

import sys
from typing import Any

from josefk.cli.tools.common import admin_client, fail, load_properties, parser, quiet_client_logs

# The APIs a Kafka 3.9 client lists for a ZooKeeper-mode broker (ApiKeys.zkBrokerApis): an API
# in this set the broker does not advertise is printed UNSUPPORTED.
ZK_BROKER_APIS = (*range(0, 52), *range(55, 59), 60, 61, *range(64, 70), 71, 72, *range(74, 82), *range(83, 88))
# Kafka 3.9's ApiKeys: name, oldest and latest version. `usable` is what a Kafka 3.9 client would
# use with the broker (its latest version, capped by the broker's), as kafka-broker-api-versions
# prints it; it is not what kafka-python would use.
KAFKA_39_CLIENT: dict[int, tuple[str, int, int]] = {
    0: ("Produce", 0, 11), 1: ("Fetch", 0, 17), 2: ("ListOffsets", 0, 9), 3: ("Metadata", 0, 12),
    4: ("LeaderAndIsr", 0, 7), 5: ("StopReplica", 0, 4), 6: ("UpdateMetadata", 0, 8),
    7: ("ControlledShutdown", 0, 3), 8: ("OffsetCommit", 0, 9), 9: ("OffsetFetch", 0, 9),
    10: ("FindCoordinator", 0, 6), 11: ("JoinGroup", 0, 9), 12: ("Heartbeat", 0, 4), 13: ("LeaveGroup", 0, 5),
    14: ("SyncGroup", 0, 5), 15: ("DescribeGroups", 0, 5), 16: ("ListGroups", 0, 5), 17: ("SaslHandshake", 0, 1),
    18: ("ApiVersions", 0, 4), 19: ("CreateTopics", 0, 7), 20: ("DeleteTopics", 0, 6), 21: ("DeleteRecords", 0, 2),
    22: ("InitProducerId", 0, 5), 23: ("OffsetForLeaderEpoch", 0, 4), 24: ("AddPartitionsToTxn", 0, 5),
    25: ("AddOffsetsToTxn", 0, 4), 26: ("EndTxn", 0, 4), 27: ("WriteTxnMarkers", 0, 1),
    28: ("TxnOffsetCommit", 0, 4), 29: ("DescribeAcls", 0, 3), 30: ("CreateAcls", 0, 3), 31: ("DeleteAcls", 0, 3),
    32: ("DescribeConfigs", 0, 4), 33: ("AlterConfigs", 0, 2), 34: ("AlterReplicaLogDirs", 0, 2),
    35: ("DescribeLogDirs", 0, 4), 36: ("SaslAuthenticate", 0, 2), 37: ("CreatePartitions", 0, 3),
    38: ("CreateDelegationToken", 0, 3), 39: ("RenewDelegationToken", 0, 2), 40: ("ExpireDelegationToken", 0, 2),
    41: ("DescribeDelegationToken", 0, 3), 42: ("DeleteGroups", 0, 2), 43: ("ElectLeaders", 0, 2),
    44: ("IncrementalAlterConfigs", 0, 1), 45: ("AlterPartitionReassignments", 0, 0),
    46: ("ListPartitionReassignments", 0, 0), 47: ("OffsetDelete", 0, 0), 48: ("DescribeClientQuotas", 0, 1),
    49: ("AlterClientQuotas", 0, 1), 50: ("DescribeUserScramCredentials", 0, 0),
    51: ("AlterUserScramCredentials", 0, 0), 52: ("Vote", 0, 1), 53: ("BeginQuorumEpoch", 0, 1),
    54: ("EndQuorumEpoch", 0, 1), 55: ("DescribeQuorum", 0, 2), 56: ("AlterPartition", 0, 3),
    57: ("UpdateFeatures", 0, 1), 58: ("Envelope", 0, 0), 59: ("FetchSnapshot", 0, 1), 60: ("DescribeCluster", 0, 1),
    61: ("DescribeProducers", 0, 0), 62: ("BrokerRegistration", 0, 4), 63: ("BrokerHeartbeat", 0, 1),
    64: ("UnregisterBroker", 0, 0), 65: ("DescribeTransactions", 0, 0), 66: ("ListTransactions", 0, 1),
    67: ("AllocateProducerIds", 0, 0), 68: ("ConsumerGroupHeartbeat", 0, 0), 69: ("ConsumerGroupDescribe", 0, 0),
    70: ("ControllerRegistration", 0, 0), 71: ("GetTelemetrySubscriptions", 0, 0), 72: ("PushTelemetry", 0, 0),
    73: ("AssignReplicasToDirs", 0, 0), 74: ("ListClientMetricsResources", 0, 0),
    75: ("DescribeTopicPartitions", 0, 0), 76: ("ShareGroupHeartbeat", 0, 0), 77: ("ShareGroupDescribe", 0, 0),
    78: ("ShareFetch", 0, 0), 79: ("ShareAcknowledge", 0, 0), 80: ("AddRaftVoter", 0, 0),
    81: ("RemoveRaftVoter", 0, 0), 82: ("UpdateRaftVoter", 0, 0), 83: ("InitializeShareGroupState", 0, 0),
    84: ("ReadShareGroupState", 0, 0), 85: ("WriteShareGroupState", 0, 0), 86: ("DeleteShareGroupState", 0, 0),
    87: ("ReadShareGroupStateSummary", 0, 0),
}


def _line(key: int, advertised: dict[int, tuple[int, int]]) -> str:
    known = KAFKA_39_CLIENT.get(key)
    name = f"{known[0]}({key})" if known else f"UNKNOWN({key})"
    if key not in advertised:
        return f"{name}: UNSUPPORTED"
    low, high = advertised[key]
    text = f"{name}: {low if low == high else f'{low} to {high}'}"
    if known is None:
        return text
    _, oldest, latest = known
    if latest < low:
        return text + " [unusable: node too new]"
    if high < oldest:
        return text + " [unusable: node too old]"
    return text + f" [usable: {min(latest, high)}]"


def _block(broker: dict[str, Any], advertised: dict[int, tuple[int, int]]) -> str:
    """Kafka's NodeApiVersions.toString(true) after the node: every key in id order."""
    keys = sorted(set(advertised) | set(ZK_BROKER_APIS))
    node = f"{broker['host']}:{broker['port']} (id: {broker['broker_id']} rack: {broker['rack'] or 'null'})"
    return f"{node} -> (\n\t" + ",\n\t".join(_line(k, advertised) for k in keys) + "\n)"


def main(argv: list[str]) -> int:
    p = parser("broker-api-versions", "Print the API versions every broker supports "
                                      "(kafka-broker-api-versions.sh).")
    p.add_argument("--bootstrap-server", required=True, metavar="HOST:PORT")
    p.add_argument("--command-config", metavar="FILE")
    args = p.parse_args(argv)
    quiet_client_logs()
    admin = None
    try:
        admin = admin_client(args.bootstrap_server, load_properties(args.command_config))
        for broker in sorted(admin.describe_cluster()["brokers"], key=lambda b: b["broker_id"]):
            versions = admin.get_broker_version_data(broker["broker_id"]).api_versions
            print(_block(broker, {int(k): (v[0], v[1]) for k, v in versions.items()}))
        return 0
    except Exception as e:  # noqa: BLE001 - every failure becomes one line
        return fail("", e)
    finally:
        if admin is not None:
            admin.close()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
