"""inter.broker.protocol.version: which versions of the inter-broker RPCs a broker sends,
so that josefk can join a cluster of Kafka brokers of that release (Kafka's MetadataVersion
in ZooKeeper mode). Versions are compared by release; an "-IVn" suffix names the last
sub-version of its release, as Kafka reads "2.8" as 2.8-IV1.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

LATEST = "3.9"
_FORMAT = re.compile(r"^(\d+)\.(\d+)(?:\.\d+)?(?:-IV\d+)?$")


@dataclass(frozen=True, order=True)
class InterBrokerProtocol:
    major: int
    minor: int
    text: str = field(default="", compare=False)  # as configured, as Kafka describes the STRING key

    def __str__(self) -> str:
        return self.text or f"{self.major}.{self.minor}"

    @classmethod
    def parse(cls, text: str) -> InterBrokerProtocol:
        """"3.9", "3.9-IV0", "2.8", "0.10.2": ValueError names what Kafka would accept."""
        found = _FORMAT.match(text.strip())
        if found is None:
            raise ValueError(f"Unknown metadata.version '{text}'")
        version = cls(int(found[1]), int(found[2]), text.strip())
        if version < cls(0, 8) or version > cls(3, 9):
            raise ValueError(f"Unknown metadata.version '{text}'. Checkout the list of supported versions "
                             f"(0.8 to {LATEST})")
        return version


    def at_least(self, major: int, minor: int) -> bool:
        return (self.major, self.minor) >= (major, minor)

    # Kafka's AbstractControllerBrokerRequestBatch picks the controller requests' versions so.
    @property
    def leader_and_isr_version(self) -> int:
        return _first(self, [((3, 4), 7), ((3, 2), 6), ((2, 8), 5), ((2, 4), 4), ((2, 2), 2), ((1, 0), 1)], 0)

    @property
    def update_metadata_version(self) -> int:
        return _first(self, [((3, 4), 8), ((2, 8), 7), ((2, 4), 6), ((2, 2), 5), ((1, 0), 4), ((0, 10), 3)], 1)

    @property
    def stop_replica_version(self) -> int:
        return _first(self, [((3, 4), 4), ((2, 6), 3), ((2, 4), 2), ((2, 2), 1)], 0)

    # Kafka's MetadataVersion picks the follower's requests so.
    @property
    def fetch_version(self) -> int:
        return _first(self, [((3, 9), 17), ((3, 7), 16), ((3, 5), 15), ((3, 1), 13), ((2, 7), 12), ((2, 3), 11),
                             ((2, 1), 10), ((2, 0), 8), ((1, 1), 7), ((0, 11), 5)], 4)

    @property
    def offset_for_leader_epoch_version(self) -> int:
        return _first(self, [((2, 8), 4), ((2, 3), 3), ((2, 1), 2), ((2, 0), 1)], 0)

    @property
    def alter_partition_supported(self) -> bool:
        """Since 2.7 (KIP-497) a leader asks the controller to change the ISR instead of
        writing the partition state in ZooKeeper itself."""
        return self.at_least(2, 7)

    @property
    def alter_partition_version(self) -> int:
        """Kafka's AlterPartitionRequest.Builder: topic ids from 2.8, ISR with broker epochs
        (KIP-903) from 3.5, leader recovery state from 3.2."""
        return _first(self, [((3, 5), 3), ((2, 8), 2)], 0)


def _first(version: InterBrokerProtocol, table: list[tuple[tuple[int, int], int]], oldest: int) -> int:
    return next((v for (major, minor), v in table if version.at_least(major, minor)), oldest)


LATEST_PROTOCOL = InterBrokerProtocol.parse(LATEST)
