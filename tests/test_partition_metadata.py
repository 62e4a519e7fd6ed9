"""Kafka's partition.metadata file: written when a broker first learns a partition's topic
id (a topic created below IBP 2.8 gets one only when a 2.8+ controller gives it), read
when the log is opened again, and a LeaderAndIsr naming another id is refused with
INCONSISTENT_TOPIC_ID (Kafka's ReplicaManager.hasConsistentTopicId). On the real
ReplicaManager and logs in a tmp dir."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from josefk.log.checkpoint import CorruptCheckpointError
from josefk.log.partition_metadata import FILE_NAME, read_topic_id, write_topic_id
from josefk.protocol.errors import ErrorCode
from josefk.replication.replica_manager import ReplicaManager
from josefk.zk.zk_data import BrokerInfo, PartitionState
from tests.disk_replica_manager import replica_manager

pytestmark = pytest.mark.unit

BROKERS = [BrokerInfo(1, "127.0.0.1", 1), BrokerInfo(2, "127.0.0.1", 2)]
TOPIC_ID = uuid.UUID("a59f6a1e-f067-4293-adcb-27f5a12e899b")


def lead(manager: ReplicaManager, epoch: int, topic_id: uuid.UUID | None) -> ErrorCode:
    state = PartitionState("t", 0, 1, epoch, [1, 2], [1, 2], 0, topic_id=topic_id)
    result = manager.leader_and_isr(0, 1, [state], BROKERS)
    assert result.error == ErrorCode.NONE
    return result.partition_errors.get(("t", 0), ErrorCode.NONE)


def test_the_file_is_kafkas_format_and_reads_back(tmp_path: Path) -> None:
    assert read_topic_id(tmp_path) is None
    write_topic_id(tmp_path, TOPIC_ID)
    assert (tmp_path / FILE_NAME).read_text() == "version: 0\ntopic_id: pZ9qHvBnQpOtyyf1oS6Jmw"  # no newline, as Kafka
    assert read_topic_id(tmp_path) == TOPIC_ID


@pytest.mark.parametrize("text", ["version: 1\ntopic_id: pZ9qHvBnQpOtyyf1oS6Jmw\n", "version: 0\n",
                                  "version: 0\ntopic_id: not-base64!\n"])
def test_a_file_not_in_kafkas_format_is_refused(tmp_path: Path, text: str) -> None:
    (tmp_path / FILE_NAME).write_text(text)
    with pytest.raises(CorruptCheckpointError):
        read_topic_id(tmp_path)


def test_the_id_is_written_once_known_kept_across_a_restart_and_another_refused(tmp_path: Path) -> None:
    partition_dir = tmp_path / "logs" / "t-0"
    with replica_manager(tmp_path) as manager:
        assert lead(manager, 1, None) == ErrorCode.NONE  # below IBP 2.8: no id, no file
        assert not (partition_dir / FILE_NAME).exists()
        assert lead(manager, 2, TOPIC_ID) == ErrorCode.NONE  # the upgraded controller's id
        assert read_topic_id(partition_dir) == TOPIC_ID
    with replica_manager(tmp_path) as manager:
        assert lead(manager, 3, None) == ErrorCode.NONE  # a 2.6 controller's request names none
        assert manager.partitions[("t", 0)].topic_id == TOPIC_ID
        assert lead(manager, 4, uuid.uuid4()) == ErrorCode.INCONSISTENT_TOPIC_ID
        assert manager.partitions[("t", 0)].leader_epoch == 3  # the refused state was not applied
        assert lead(manager, 5, TOPIC_ID) == ErrorCode.NONE
        assert read_topic_id(partition_dir) == TOPIC_ID
