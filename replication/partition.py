"""Partition: one topic-partition's replica on this broker, leader or follower.

It owns the leader epoch, the ISR and the high watermark. The high watermark is the
offset below which every in-sync replica has the data; consumers never read above it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from josefk.log.log import Log
from josefk.protocol.errors import ErrorCode, KafkaError
from josefk.replication.state import PartitionState

log = logging.getLogger(__name__)


@dataclass
class ReadResult:
    regions: list  # josefk.log FileRegion objects
    high_watermark: int
    log_start_offset: int
    log_end_offset: int

    @property
    def size(self) -> int:
        return sum(r.size for r in self.regions)


class Partition:
    def __init__(self, topic: str, partition: int, broker_id: int, log_: Log) -> None:
        self.topic = topic
        self.partition = partition
        self.broker_id = broker_id
        self.log = log_
        self.leader_id = -1
        self.leader_epoch = -1
        self.isr: list[int] = []
        self.replicas: list[int] = []
        self.high_watermark = 0
        self.follower_end_offsets: dict[int, int] = {}

    @property
    def is_leader(self) -> bool:
        return self.leader_id == self.broker_id

    def make_leader(self, state: PartitionState) -> None:
        self.leader_id = state.leader
        self.leader_epoch = state.leader_epoch
        self.isr = list(state.isr)
        self.replicas = list(state.replicas)
        self.follower_end_offsets = {r: -1 for r in self.replicas if r != self.broker_id}
        self.maybe_increment_high_watermark()
        log.info("%s-%d: leader at epoch %d, ISR %s, high watermark %d", self.topic, self.partition,
                 self.leader_epoch, self.isr, self.high_watermark)

    def make_follower(self, state: PartitionState) -> None:
        self.leader_id = state.leader
        self.leader_epoch = state.leader_epoch
        self.isr = list(state.isr)
        self.replicas = list(state.replicas)

    def maybe_increment_high_watermark(self) -> bool:
        """The high watermark is the smallest log end offset among the ISR."""
        end_offsets = [self.log.log_end_offset]
        for replica in self.isr:
            if replica != self.broker_id:
                end_offsets.append(self.follower_end_offsets.get(replica, -1))
        new_hw = max(min(end_offsets), self.high_watermark)
        if new_hw != self.high_watermark:
            self.high_watermark = new_hw
            return True
        return False

    def append_as_leader(self, records: bytes, required_acks: int, now_ms: int):
        if not self.is_leader:
            raise KafkaError(ErrorCode.NOT_LEADER_OR_FOLLOWER)
        min_isr = self.log.config.min_insync_replicas
        if required_acks == -1 and len(self.isr) < min_isr:
            raise KafkaError(ErrorCode.NOT_ENOUGH_REPLICAS,
                             f"The size of the current ISR {self.isr} is insufficient to satisfy the "
                             f"min.isr requirement of {min_isr}")
        info = self.log.append_as_leader(records, self.leader_epoch, now_ms)
        self.maybe_increment_high_watermark()
        return info

    def delete_records_before(self, offset: int) -> int:
        """DeleteRecords: advance the log start offset (-1 means the high watermark)."""
        if not self.is_leader:
            raise KafkaError(ErrorCode.NOT_LEADER_OR_FOLLOWER)
        offset = self.high_watermark if offset == -1 else offset
        if offset < 0 or offset > self.high_watermark:
            raise KafkaError(ErrorCode.OFFSET_OUT_OF_RANGE,
                             f"Cannot delete records before {offset}: the high watermark is {self.high_watermark}")
        self.log.maybe_increment_log_start_offset(offset)
        self.log.delete_old_segments()
        return self.log.log_start_offset

    def read(self, offset: int, max_bytes: int, committed_only: bool, min_one_message: bool) -> ReadResult:
        if not self.is_leader:
            raise KafkaError(ErrorCode.NOT_LEADER_OR_FOLLOWER)
        upper = self.high_watermark if committed_only else None
        info = self.log.read(offset, max_bytes, max_offset=upper, min_one_message=min_one_message)
        return ReadResult(list(info.regions), self.high_watermark, self.log.log_start_offset,
                          self.log.log_end_offset)
