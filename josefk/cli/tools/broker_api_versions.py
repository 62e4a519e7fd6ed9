"""`josefk broker-api-versions`: Kafka's kafka-broker-api-versions.sh (ApiVersions of every broker)."""

from __future__ import annotations

import sys
from typing import Any

from kafka.protocol.api_key import ApiKey

from josefk.cli.tools.common import admin_client, fail, load_properties, parser, quiet_client_logs
from josefk.protocol.apis import request_class

# The APIs a Kafka 3.9 client lists for a ZooKeeper-mode broker (ApiKeys.zkBrokerApis): an API
# in this set the broker does not advertise is printed UNSUPPORTED.
ZK_BROKER_APIS = (*range(0, 52), *range(55, 59), 60, 61, *range(64, 70), 71, 72, *range(74, 82), *range(83, 88))
NAMES = {74: "ListClientMetricsResources"}  # Kafka 3.9's name; later Kafka renamed it ListConfigResources


def _latest_client_version(key: int) -> tuple[int, int] | None:
    """(oldest, latest) version this client can speak, None for an API it has no schema of."""
    try:
        cls = request_class(key)
    except KeyError:
        return None
    low, high = cls.valid_versions
    return low, high


def _line(key: int, advertised: dict[int, tuple[int, int]]) -> str:
    try:
        name = NAMES.get(key) or ApiKey(key).name
    except ValueError:
        name = "UNKNOWN"
    if key not in advertised:
        return f"{name}({key}): UNSUPPORTED"
    low, high = advertised[key]
    text = f"{name}({key}): {low if low == high else f'{low} to {high}'}"
    client = _latest_client_version(key)
    if client is None:
        return text
    if client[1] < low:
        return text + " [unusable: node too new]"
    if high < client[0]:
        return text + " [unusable: node too old]"
    return text + f" [usable: {min(client[1], high)}]"


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
