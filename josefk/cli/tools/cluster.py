"""`josefk cluster`: Kafka's kafka-cluster.sh (`cluster-id`, `unregister`).

`unregister` removes a KRaft broker's registration (UnregisterBroker, KIP-500). A ZooKeeper-mode
cluster, Kafka's or josefk's, has no such API (a broker's registration is its ephemeral znode, gone
when it stops), so the tool says what Kafka's does there: the cluster does not support it.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from josefk.cli.tools.common import (
    ToolError,
    admin_client,
    error_text,
    load_properties,
    parser,
    quiet_client_logs,
    serves,
)

UNREGISTER_BROKER = 64


def build_parser() -> argparse.ArgumentParser:
    p = parser("cluster", "The Kafka cluster tool (kafka-cluster.sh).")
    commands = p.add_subparsers(dest="command", required=True)
    cluster_id = commands.add_parser("cluster-id", help="Get information about the ID of a cluster.")
    unregister = commands.add_parser("unregister", help="Unregister a broker.")
    for sub in (cluster_id, unregister):
        sub.add_argument("--bootstrap-server", "-b", required=True, metavar="BOOTSTRAP_SERVER",
                         help="A list of host/port pairs to use for establishing the connection to the Kafka "
                              "cluster.")
        sub.add_argument("--config", "-c", "--command-config", dest="config", metavar="CONFIG",
                         help="A property file containing configurations for the Admin client.")
    unregister.add_argument("--id", "-i", type=int, required=True, help="The ID of the broker to unregister.")
    return p


def print_cluster_id(admin: Any) -> None:
    cluster_id = admin.describe_cluster().get("cluster_id")
    if cluster_id is None:
        print("No cluster ID found. The Kafka version is probably too old.")
    else:
        print(f"Cluster ID: {cluster_id}")


def unregister(admin: Any, broker_id: int) -> None:
    if not serves(admin, UNREGISTER_BROKER):
        print("The target cluster does not support the broker unregistration API.")
        return
    raise ToolError(f"Broker {broker_id} was not unregistered: the cluster runs in KRaft mode, and josefk's "
                    "cluster tool only knows ZooKeeper-mode clusters; use Kafka's kafka-cluster.sh there.")


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    quiet_client_logs()
    admin = None
    try:
        admin = admin_client(args.bootstrap_server, load_properties(args.config))
        if args.command == "cluster-id":
            print_cluster_id(admin)
        else:
            unregister(admin, args.id)
        return 0
    except Exception as e:  # noqa: BLE001 - every failure becomes one line, as Kafka's tool prints it
        print(error_text(e), file=sys.stderr)
        return 1
    finally:
        if admin is not None:
            admin.close()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
