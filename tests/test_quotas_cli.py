"""`josefk configs --entity-type clients|users` next to Kafka's own kafka-configs
(kafka.admin.ConfigCommand) against a real Apache Kafka 3.9.2 broker: the same changes and
the same output."""

from __future__ import annotations

import pytest

from tests.test_cli_against_kafka import josefk, kafka, kafka_tool  # noqa: F401 - the module's fixture

pytestmark = pytest.mark.cluster

CONFIG_COMMAND = "kafka.admin.ConfigCommand"


def same_describe(bootstrap: str, *args: str) -> None:
    ours = josefk("configs", "--bootstrap-server", bootstrap, "--describe", *args)
    theirs = kafka_tool(CONFIG_COMMAND, "--bootstrap-server", bootstrap, "--describe", *args)
    assert ours.returncode == theirs.returncode == 0, (ours.stderr, theirs.stderr)
    assert ours.stdout == theirs.stdout, args


def same_failure(bootstrap: str, *args: str) -> None:
    """Both tools refuse the change, with Kafka's exception message."""
    ours = josefk("configs", "--bootstrap-server", bootstrap, "--alter", *args)
    theirs = kafka_tool(CONFIG_COMMAND, "--bootstrap-server", bootstrap, "--alter", *args)
    assert ours.returncode != 0 and theirs.returncode != 0, (ours, theirs)
    message = [line for line in theirs.stderr.splitlines() if not line.startswith("log4j:")][0]
    assert message.strip() in ours.stderr, (message, ours.stderr)
    assert "Traceback" not in ours.stderr


def test_configs_manages_client_quotas_as_kafka_configs(kafka: str) -> None:  # noqa: F811
    alter = josefk("configs", "--bootstrap-server", kafka, "--alter", "--entity-type", "clients", "--entity-name",
                   "c1", "--add-config", "producer_byte_rate=1024,consumer_byte_rate=2048,request_percentage=12.5")
    assert alter.returncode == 0, alter.stderr
    assert alter.stdout == "Completed updating config for client c1.\n"
    theirs = kafka_tool(CONFIG_COMMAND, "--bootstrap-server", kafka, "--alter", "--entity-type", "users",
                        "--entity-name", "alice", "--entity-type", "clients", "--entity-default",
                        "--add-config", "producer_byte_rate=10000000")
    assert theirs.returncode == 0, theirs.stderr
    ours = josefk("configs", "--bootstrap-server", kafka, "--alter", "--entity-type", "clients", "--entity-default",
                  "--add-config", "consumer_byte_rate=500")
    assert ours.stdout == "Completed updating default config for clients in the cluster.\n", ours.stderr
    same_describe(kafka, "--entity-type", "clients", "--entity-name", "c1")
    same_describe(kafka, "--entity-type", "clients", "--entity-default")
    same_describe(kafka, "--entity-type", "users", "--entity-name", "alice", "--entity-type", "clients",
                  "--entity-default")
    deleted = josefk("configs", "--bootstrap-server", kafka, "--alter", "--entity-type", "clients", "--entity-name",
                     "c1", "--delete-config", "request_percentage")
    assert deleted.returncode == 0, deleted.stderr
    same_describe(kafka, "--entity-type", "clients", "--entity-name", "c1")
    same_failure(kafka, "--entity-type", "clients", "--entity-name", "c1", "--delete-config", "request_percentage")
    same_failure(kafka, "--entity-type", "clients", "--entity-name", "c1", "--add-config", "nope=1")
    same_failure(kafka, "--entity-type", "clients", "--entity-name", "c1", "--add-config", "producer_byte_rate=1.5")


def test_configs_manages_ip_quotas_as_kafka_configs(kafka: str) -> None:  # noqa: F811
    """--entity-type ips: connection_creation_rate (KIP-612). The default entity gets a rate
    no test comes near, for every connection of this module's broker is from 127.0.0.1."""
    alter = josefk("configs", "--bootstrap-server", kafka, "--alter", "--entity-type", "ips", "--entity-name",
                   "10.20.30.40", "--add-config", "connection_creation_rate=5")
    assert (alter.returncode, alter.stdout) == (0, "Completed updating config for ip 10.20.30.40.\n"), alter.stderr
    theirs = kafka_tool(CONFIG_COMMAND, "--bootstrap-server", kafka, "--alter", "--entity-type", "ips",
                        "--entity-name", "10.20.30.41", "--add-config", "connection_creation_rate=6")
    assert theirs.returncode == 0, theirs.stderr
    ours = josefk("configs", "--bootstrap-server", kafka, "--alter", "--entity-type", "ips", "--entity-default",
                  "--add-config", "connection_creation_rate=100000")
    assert ours.stdout == "Completed updating default config for ips in the cluster.\n", ours.stderr
    same_describe(kafka, "--entity-type", "ips", "--entity-name", "10.20.30.40")
    same_describe(kafka, "--entity-type", "ips", "--entity-default")
    same_describe(kafka, "--entity-type", "ips")
    same_failure(kafka, "--entity-type", "ips", "--entity-name", "10.20.30.40", "--add-config",
                 "producer_byte_rate=5,x=1")
    same_failure(kafka, "--entity-type", "ips", "--entity-name", "10.20.30.40", "--add-config",
                 "connection_creation_rate=1.5")
    same_failure(kafka, "--entity-type", "ips", "--entity-name", "no-such-host.invalid", "--add-config",
                 "connection_creation_rate=5")
    same_failure(kafka, "--entity-type", "ips", "--entity-name", "10.20.30.40", "--delete-config", "nope")
    deleted = josefk("configs", "--bootstrap-server", kafka, "--alter", "--entity-type", "ips", "--entity-name",
                     "10.20.30.40", "--delete-config", "connection_creation_rate")
    assert deleted.returncode == 0, deleted.stderr
    same_describe(kafka, "--entity-type", "ips")
