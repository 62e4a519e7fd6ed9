"""Kafka's partition.metadata file: the topic id of the partition a log dir holds.

    version: 0
    topic_id: pZ9qHvBnQpOtyyf1oS6Jmw     <- URL-safe base64 of the UUID, no padding, no newline

Written (atomically, fsynced) once a broker first learns the topic's id, read when the log
is opened: a LeaderAndIsr naming another id for the partition is then refused with
INCONSISTENT_TOPIC_ID (the dir belongs to a deleted topic of the same name).
"""

from __future__ import annotations

import base64
import binascii
import uuid
from pathlib import Path

from josefk.log.checkpoint import CorruptCheckpointError, write_atomically

FILE_NAME = "partition.metadata"
VERSION = 0


def kafka_uuid(topic_id: uuid.UUID) -> str:
    """Kafka's Uuid.toString: URL-safe base64 without padding."""
    return base64.urlsafe_b64encode(topic_id.bytes).decode().rstrip("=")


def write_topic_id(log_dir: Path, topic_id: uuid.UUID) -> None:
    write_atomically(log_dir / FILE_NAME, f"version: {VERSION}\ntopic_id: {kafka_uuid(topic_id)}".encode())


def read_topic_id(log_dir: Path) -> uuid.UUID | None:
    """The topic id recorded in `log_dir`, None where there is no file."""
    path = log_dir / FILE_NAME
    try:
        text = path.read_text()
    except FileNotFoundError:
        return None
    fields = dict(line.split(": ", 1) for line in text.splitlines() if ": " in line)
    if fields.get("version") != str(VERSION) or "topic_id" not in fields:
        raise CorruptCheckpointError(f"{path}: not a version {VERSION} partition metadata file")
    try:
        return uuid.UUID(bytes=base64.urlsafe_b64decode(fields["topic_id"] + "=="))
    except (ValueError, binascii.Error) as e:
        raise CorruptCheckpointError(f"{path}: malformed topic id {fields['topic_id']!r}") from e
