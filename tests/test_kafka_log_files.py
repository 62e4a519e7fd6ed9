"""The broker's own log files as Kafka's config/log4j.properties lays them out: server.log,
controller.log, state-change.log, ... under $LOG_DIR, in log4j's layout and with Kafka's logger
names, rolled hourly; and the retention and recovery lines carrying Kafka's details."""

from __future__ import annotations

import importlib
import logging
import os
import pkgutil
import re
import time
from pathlib import Path

import pytest
from kafka import KafkaProducer
from kafka.admin import KafkaAdminClient, NewTopic

from harness.josefk import BrokerProcess
from harness.wire import wait_until
from josefk.cli.kafka_loggers import KAFKA_LOGGER_NAMES, kafka_logger_name
from josefk.cli.log_files import HourlyRollingFileHandler, hour_of

KAFKA_FILES = ["controller.log", "kafka-authorizer.log", "kafka-request.log", "log-cleaner.log", "server.log",
               "state-change.log"]
# log4j's `[%d] %p %m (%c)%n`; a message may span lines (the KafkaConfig dump), and an
# exception's traceback follows the line, as log4j prints a throwable's stack trace.
RECORD = re.compile(r"\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}\] (TRACE|DEBUG|INFO|WARN|ERROR|FATAL) .*? \(([\w.$]+)\)"
                    r"(\nTraceback \(most recent call last\):\n.*)?", re.DOTALL)
SEGMENT = r"LogSegment\(baseOffset=\d+, size=\d+, lastModifiedTime=\d+, largestRecordTimestamp=\d+\)"


def records(path: Path) -> list[tuple[str, str]]:
    """(logger, record) for each record of a log file; every one must have the layout."""
    found = []
    for record in re.split(r"(?m)^(?=\[\d{4}-)", path.read_text()):
        if record:
            match = RECORD.fullmatch(record.rstrip("\n"))
            assert match, f"{path.name}: not log4j's layout: {record!r}"
            found.append((match[2], record))
    return found


@pytest.mark.unit
def test_every_broker_module_logger_has_a_kafka_name() -> None:
    """A new module's logger goes in the table, or operators see a Python name."""
    for package in ("server", "controller", "replication", "log", "coordinator", "zk"):
        module = importlib.import_module(f"josefk.{package}")
        for info in pkgutil.walk_packages(module.__path__, f"josefk.{package}."):
            importlib.import_module(info.name)
    names = [name for name, logger in logging.Logger.manager.loggerDict.items()
             if isinstance(logger, logging.Logger) and name.startswith("josefk.")
             and name.split(".")[1] in {"server", "controller", "replication", "log", "coordinator", "zk"}]
    assert names and [name for name in names if kafka_logger_name(name) is None] == []
    assert kafka_logger_name("josefk.log.log.local") == "kafka.log.LocalLog"
    assert set(KAFKA_LOGGER_NAMES) <= set(logging.Logger.manager.loggerDict)  # no stale entries


@pytest.mark.unit
def test_hourly_roll_with_a_fake_clock(tmp_path: Path) -> None:
    """log4j's DailyRollingFileAppender with '.'yyyy-MM-dd-HH: the first line of a new hour
    moves the file to server.log.<the hour it holds> and starts a fresh one."""
    start = time.mktime((2026, 11, 29, 1, 59, 58, 0, 0, -1))
    now = [start]
    handler = HourlyRollingFileHandler(tmp_path / "server.log", clock=lambda: now[0])
    handler.setFormatter(logging.Formatter("%(message)s"))

    def emit(message: str) -> None:
        handler.emit(logging.makeLogRecord({"msg": message, "levelno": logging.INFO}))

    emit("one")
    now[0] = start + 1
    emit("two")
    assert [p.name for p in tmp_path.iterdir()] == ["server.log"]
    now[0] = start + 2  # 02:00:00
    emit("three")
    handler.close()
    rolled = tmp_path / f"server.log.{hour_of(start)}"
    assert rolled.name == "server.log.2026-11-29-01"
    assert rolled.read_text() == "one\ntwo\n"
    assert (tmp_path / "server.log").read_text() == "three\n"

    # A file left by a run in an earlier hour is rolled at the first line of this one.
    os.utime(tmp_path / "server.log", (start + 2, start + 2))  # written at 02:00:00
    now[0] = start + 2 + 3600  # 03:00:00
    again = HourlyRollingFileHandler(tmp_path / "server.log", clock=lambda: now[0])
    again.emit(logging.makeLogRecord({"msg": "four", "levelno": logging.INFO}))
    again.close()
    assert (tmp_path / "server.log.2026-11-29-02").read_text() == "three\n"
    assert (tmp_path / "server.log").read_text() == "four\n"


@pytest.mark.integration
def test_kafka_log_files_of_a_broker_through_retention_and_kill_9(tmp_path: Path) -> None:
    logs = tmp_path / "server-logs"
    overrides = {"log.retention.check.interval.ms": "200"}
    broker = BrokerProcess(tmp_path / "data", output=tmp_path / "stdout", log_level="INFO", logs_dir=logs,
                           overrides=overrides)
    try:
        admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap)
        admin.create_topics([NewTopic("ret", 1, 1, topic_configs={
            "segment.bytes": "1024", "retention.ms": "1500", "file.delete.delay.ms": "0"})])
        admin.close()
        producer = KafkaProducer(bootstrap_servers=broker.bootstrap, linger_ms=0)
        for _ in range(30):
            producer.send("ret", b"x" * 100).get(timeout=30)
        producer.close()
        server_log = logs / "server.log"
        wait_until(lambda: ".log.deleted." in server_log.read_text(), "retention deleted segments", timeout=60)
    finally:
        broker.kill()  # kill -9: the restart recovers
    restarted = BrokerProcess(tmp_path / "data", port=broker.port, output=tmp_path / "stdout", log_level="INFO",
                              logs_dir=logs, overrides=overrides)
    try:
        wait_until(lambda: "Completed load of Log(dir=" in server_log.read_text(), "the restart loaded the log")
    finally:
        assert restarted.stop() == 0

    assert sorted(p.name for p in logs.iterdir()) == KAFKA_FILES
    files = {name: records(logs / name) for name in KAFKA_FILES}
    every = [(logger, record) for found in files.values() for logger, record in found]
    assert not [record for logger, record in every if logger.startswith("josefk.")]

    server = files["server.log"]
    server_text = "".join(record for _, record in server)
    assert {"kafka.server.KafkaServer", "kafka.server.KafkaConfig", "kafka.log.LogManager", "kafka.log.UnifiedLog",
            "kafka.log.LocalLog", "org.apache.kafka.storage.internals.log.LogSegment"} <= {n for n, _ in server}
    assert not {n for n, _ in server} & {"kafka.controller.KafkaController", "state.change.logger"}  # additivity
    dump = next(record for logger, record in server if logger == "kafka.server.KafkaConfig"
                and "KafkaConfig values:" in record)
    assert "\tlog.retention.check.interval.ms = 200\n" in dump and "\tsasl.enabled.mechanisms = [GSSAPI]\n" in dump
    assert re.search(r"\[LocalLog partition=ret-0, dir=\S+/data\] Rolled new log segment at offset \d+ in \d+ ms\.",
                     server_text)
    first = SEGMENT.replace("baseOffset=\\d+", "baseOffset=0")
    assert re.search(rf"\[UnifiedLog partition=ret-0, dir=\S+/data\] Deleting segment {first} "
                     r"due to log retention time 1500ms breach based on the largest record timestamp in the segment",
                     server_text)
    assert re.search(r"Incremented log start offset to [1-9]\d* due to segment deletion", server_text)
    assert re.search(r"INFO \[ProducerStateManager partition=ret-0\] Wrote producer snapshot at offset [1-9]\d* with 1 "
                     r"producer ids in \d+ ms\. \(org\.apache\.kafka\.storage\.internals\.log\.ProducerStateManager\)",
                     server_text)
    assert re.search(rf"Deleting segment files {SEGMENT}", server_text)
    assert re.search(r"INFO Deleted log \S+/data/ret-0/00000000000000000000\.log\.deleted\. "
                     r"\(org\.apache\.kafka\.storage\.internals\.log\.LogSegment\)", server_text)
    assert re.search(r"Recovering 1 logs from \S+/data since no clean shutdown file was found", server_text)
    assert re.search(r"\[LogLoader partition=ret-0, dir=\S+/data\] Recovering unflushed segment \d+\. 0/\d+ "
                     r"recovered for ret-0\.", server_text)
    assert re.search(r"Completed load of Log\(dir=\S+/data/ret-0, topicId=[\w-]{22}, topic=ret, partition=0, "
                     r"highWatermark=\d+, lastStableOffset=\d+, logStartOffset=[1-9]\d*, logEndOffset=30\) with \d+ "
                     r"segments, local-log-start-offset [1-9]\d* and log-end-offset 30 in \d+ms \(1/1 completed in ",
                     server_text)
    assert re.search(r"Loaded 1 logs in \d+ms \(unclean log dirs = ArrayBuffer\(\S+/data\)\)", server_text)

    controller = files["controller.log"]
    assert controller and {n for n, _ in controller} <= {"kafka.controller.KafkaController",
                                                         "kafka.controller.ControllerChannelManager",
                                                         "kafka.controller.ControllerEventManager"}
    assert any("became controller with epoch" in record for _, record in controller)

    state_change = "".join(record for logger, record in files["state-change.log"] if logger == "state.change.logger")
    assert {n for n, _ in files["state-change.log"]} == {"state.change.logger"}
    assert "Changed partition ret-0 state from NonExistentPartition to NewPartition with assigned replicas 0" \
        in state_change
    assert re.search(r"Changed partition ret-0 from NewPartition to OnlinePartition with state LeaderAndIsr\(leader=0, "
                     r"leaderEpoch=0, isr=List\(0\), leaderRecoveryState=RECOVERED, partitionEpoch=0\)", state_change)
    assert re.search(r"\[Broker id=0\] Leader ret-0 with topic id Some\([\w-]{22}\) starts at leader epoch 0 from "
                     r"offset 0 with partition epoch 0, high watermark 0, ISR \[0\]", state_change)
    assert "Sending LeaderAndIsr request to broker 0 with 1 become-leader and 0 become-follower partitions" \
        in state_change

    # stdout: what Kafka's stdout appender gets, the root's (server.log's) records.
    stdout = (tmp_path / "stdout").read_text()
    assert "KafkaConfig values:" in stdout and "Rolled new log segment" in stdout
    assert "(state.change.logger)" not in stdout and "(kafka.controller.KafkaController)" not in stdout
