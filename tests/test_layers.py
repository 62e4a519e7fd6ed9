"""The packages point one way, as Kafka's core does: protocol <- log <- zk, clients <-
replication, controller <- coordinator <- server. zk/ (Kafka's kafka.zk: the coordination
stores, the znode paths and JSON, topic and config administration) and clients/ (the
inter-broker NetworkClient) are shared infrastructure below both the control plane
(controller/, which holds the controller alone: its event queue, election, channel) and the
data plane (replication/, coordinator/), which therefore never import the controller.
server/network/ (Kafka's kafka.network: the socket server, connections, request channel,
memory pool, connection quotas and the SASL/TLS authenticators) sits under the rest of
server/ and speaks only the protocol: it imports neither replication nor the ZooKeeper
model, nor the handlers and wiring above it (they give it what it needs, such as the SCRAM
credential lookup).
utils/ (Kafka's common.utils: Time and Scheduler) is below them all: it imports nothing of
josefk and every package may import it. The CLI, the console and the Spark source talk to
brokers over the wire only; `josefk host` also serves its brokers' coordination store
(zk/host_store.py). Imports are read from the source with ast, so a lazy import inside a
function counts too."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# package -> the josefk packages it may import (besides itself and EVERYONE's)
ALLOWED: dict[str, set[str]] = {
    "utils": set(),
    "protocol": set(),
    "log": {"protocol"},
    "zk": {"protocol", "log"},
    "clients": {"protocol"},
    "controller": {"protocol", "log", "zk", "clients"},
    "replication": {"protocol", "log", "zk", "clients"},
    "coordinator": {"protocol", "log", "zk", "clients", "replication"},
    "server": {"protocol", "log", "zk", "clients", "controller", "replication", "coordinator"},
    # clients only for the TLS settings, which build the inter-broker client's from the listener's
    "server/network": {"protocol", "clients"},
    "josefk/cli": {"protocol", "cli", "server", "zk"},  # server for `josefk broker`; zk for `josefk host`'s store
    "josefk/console": {"protocol", "cli"},  # a Kafka client like the tools, sharing their helpers
    "josefk/spark": {"protocol", "spark"},
}
EVERYONE = {"utils"}  # the lowest layer, importable from anywhere


def josefk_imports(path: Path) -> set[tuple[str, int]]:
    """(module path after josefk., line) of every import of josefk in a file."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if parts[0] == "josefk" and len(parts) > 1:
                found.add((".".join(parts[1:]), node.lineno))
    return found


def wrong_imports(path: Path, package: str, allowed: set[str]) -> list[tuple[str, int]]:
    """The imports of a file in `package` (a folder: "server/network", "josefk/cli") that
    reach neither its own package nor one it may import."""
    own = package.removeprefix("josefk/").replace("/", ".")
    return sorted((imported, line) for imported, line in josefk_imports(path)
                  if not (imported == own or imported.startswith(own + "."))
                  and imported.split(".")[0] not in allowed | EVERYONE)


def violations() -> list[str]:
    bad: list[str] = []
    for package, allowed in ALLOWED.items():
        files = sorted((ROOT / package).rglob("*.py"))
        assert files, f"no sources under {package}"
        for path in files:
            bad.extend(f"{path.relative_to(ROOT)}:{line} imports josefk.{imported}"
                       for imported, line in wrong_imports(path, package, allowed))
    return bad


# The broker's packages: they speak Kafka's protocol through josefk's generated messages,
# so kafka-python is a client library for the tools and tests, never a broker dependency.
BROKER_PACKAGES = ("utils", "protocol", "log", "zk", "clients", "controller", "replication", "coordinator", "server")


def imports_of(path: Path, top: str) -> list[int]:
    """Lines that import the top-level module `top` (lazy imports included)."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == top for a in node.names):
            lines.append(node.lineno)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == top:
            lines.append(node.lineno)
    return lines


def test_the_broker_does_not_import_kafka_python():
    found = [f"{path.relative_to(ROOT)}:{line}" for package in BROKER_PACKAGES
             for path in sorted((ROOT / package).rglob("*.py")) for line in imports_of(path, "kafka")]
    assert found == []


def test_the_kafka_python_check_sees_an_import(tmp_path):
    wrong = tmp_path / "m.py"
    wrong.write_text("import os\n\ndef f():\n    from kafka.protocol.api_message import ApiMessage\n")
    assert imports_of(wrong, "kafka") == [4]


def test_layers_point_one_way():
    assert violations() == []


def test_the_check_sees_a_wrong_way_import(tmp_path):
    """The reader must find what the rule forbids, or the test above proves nothing."""
    wrong = tmp_path / "m.py"
    wrong.write_text("def f():\n    from josefk.server.broker import KafkaServer\n")
    assert josefk_imports(wrong) == {("server.broker", 2)}
    assert wrong_imports(wrong, "replication", ALLOWED["replication"]) == [("server.broker", 2)]


def test_the_data_plane_may_not_reach_the_controller(tmp_path):
    """replication/ and coordinator/ use the ZooKeeper model (zk/) and the inter-broker
    client (clients/), never the controller that shares them."""
    wrong = tmp_path / "m.py"
    wrong.write_text("from josefk.zk.zk_data import BrokerEpoch\n"
                     "from josefk.controller.controller_channel import ControllerChannelManager\n"
                     "from josefk.clients.network_client import NetworkClient\n")
    for package in ("replication", "coordinator"):
        assert wrong_imports(wrong, package, ALLOWED[package]) == [("controller.controller_channel", 2)]


def test_the_network_layer_may_not_reach_replication_zookeeper_or_the_handlers(tmp_path):
    wrong = tmp_path / "m.py"
    wrong.write_text("from josefk.server.network.request_channel import Request\n"
                     "from josefk.replication.purgatory import current_request\n"
                     "from josefk.zk.coordination_store import CoordinationStore\n"
                     "from josefk.server.kafka_apis import KafkaApis\n"
                     "from josefk.protocol.errors import ErrorCode\n")
    assert wrong_imports(wrong, "server/network", ALLOWED["server/network"]) == [
        ("replication.purgatory", 2), ("server.kafka_apis", 4), ("zk.coordination_store", 3)]


def test_mypy_sees_every_package():
    """mypy reads the packages through typecheck/josefk/ (see pyproject.toml): a package
    without its link there would silently go unchecked."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    folders = {name.split(".", 1)[1]: folder for name, folder in config["tool"]["setuptools"]["package-dir"].items()
               if "." in name}
    links = {p.name: p.resolve() for p in (ROOT / "typecheck" / "josefk").iterdir()}
    assert links == {name: (ROOT / folder).resolve() for name, folder in folders.items()}
    assert "typecheck/josefk" in config["tool"]["mypy"]["files"]


def test_the_tools_do_not_name_the_console():
    """josefk.console shares the tools' helpers (josefk.cli); josefk.main, above both,
    dispatches to each, so neither package reaches the other's name back."""
    assert [p.name for p in (ROOT / "josefk" / "cli").rglob("*.py") if "josefk.console" in p.read_text()] == []
