"""Waiting for a kafka-python admin client to see a whole cluster."""

from __future__ import annotations

from collections.abc import Iterable

from kafka import KafkaAdminClient

from harness.wire import wait_until


def wait_for_brokers(admin: KafkaAdminClient, broker_ids: Iterable[int], timeout: float = 120) -> None:
    """Until every broker is in the client's cluster metadata. The client bootstrapped from
    whichever broker answered first, which may not yet have had the controller's
    UpdateMetadata naming the others, and it refreshes only every metadata.max.age.ms: a
    request for one broker (its configs, its log dirs) fails with UnknownBrokerIdError until then."""
    wanted = set(broker_ids)
    cluster = admin._client.cluster

    def knows_all() -> bool:
        if wanted <= {b.node_id for b in cluster.brokers()}:
            return True
        cluster.request_update()
        return False

    wait_until(knows_all, f"brokers {sorted(wanted)} in the admin client's metadata", timeout=timeout)
