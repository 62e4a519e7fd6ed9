"""Three josefk brokers and a ZooKeeper, each a process in its own network namespace."""

from __future__ import annotations

import signal
import time
from pathlib import Path

from kazoo.exceptions import KazooException

from harness.josefk import BrokerProcess
from harness.zookeeper import ZooKeeperServer
from tests.chaos.network import Network
from tests.test_cluster import BROKER_IDS, Cluster

BROKER_PORT = 9092
ZOOKEEPER_PORT = 2181
SESSION_TIMEOUT_MS = 6000
REPLICA_LAG_TIME_MAX_MS = 3000
# ZooKeeper caps sessions at 20 ticks: 500 ms ticks allow the 6 s sessions the brokers ask for.
ZOOKEEPER_TICK_MS = 500


def node(broker_id: int) -> str:
    return f"b{broker_id}"


class ChaosCluster(Cluster):
    """test_cluster's Cluster, with every process behind its own namespace's veth."""

    def __init__(self, root: Path) -> None:
        self.network = Network(["zk", *(node(b) for b in BROKER_IDS)])
        try:
            (root / "zookeeper").mkdir(parents=True, exist_ok=True)
            zk = self._zookeeper(str(root / "zookeeper"))  # under the run's root: removed with it
            try:
                super().__init__(zk, root, overrides={
                    "zookeeper.session.timeout.ms": str(SESSION_TIMEOUT_MS),
                    "replica.lag.time.max.ms": str(REPLICA_LAG_TIME_MAX_MS),
                    "offsets.topic.num.partitions": "3",
                    "unclean.leader.election.enable": "false"})
            except BaseException:
                for broker in getattr(self, "brokers", {}).values():
                    broker.kill()
                zk.stop()
                raise
        except BaseException:
            self.network.close()
            raise

    def _zookeeper(self, data_dir: str | None = None) -> ZooKeeperServer:
        return ZooKeeperServer(tick_ms=ZOOKEEPER_TICK_MS, host=self.network.addresses["zk"], port=ZOOKEEPER_PORT,
                               data_dir=data_dir, prefix=self.network.prefix("zk"))

    def start(self, broker_id: int) -> None:
        self.brokers[broker_id] = BrokerProcess(
            self.root / f"broker-{broker_id}", port=BROKER_PORT, host=self.network.addresses[node(broker_id)],
            output=self.root / f"broker-{broker_id}.out",
            prefix=self.network.prefix(node(broker_id)), log_level="INFO",  # the run's files are for diagnosis
            overrides={"broker.id": str(broker_id), "zookeeper.connect": self.zk.connect,
                       "default.replication.factor": "3", "offsets.topic.replication.factor": "3",
                       "leader.imbalance.check.interval.seconds": "2",
                       "controlled.shutdown.retry.backoff.ms": "200", **self.overrides})

    def registration(self, broker_id: int) -> int | None:
        """The czxid (broker epoch) of the broker's /brokers/ids znode, None if absent or unknown."""
        try:
            stat = self.kazoo.exists(f"/brokers/ids/{broker_id}")
        except KazooException:
            return None
        return stat.czxid if stat else None

    def restart(self, broker_id: int, old_epoch: int | None, timeout: float = 60) -> int:
        """Start the broker until it registers with a new epoch; returns how many start-ups failed.
        A broker restarted while its old ZooKeeper session still holds its id gives up at
        start-up (Kafka fails at once; josefk waits for the session timeout first), so this
        starts it again, as a supervisor would."""
        failed = 0
        deadline = time.monotonic() + timeout
        self.start(broker_id)
        while self.registration(broker_id) in (None, old_epoch):
            if time.monotonic() > deadline:
                raise AssertionError(f"broker {broker_id} did not register within {timeout} s")
            if not self.running(broker_id):
                failed += 1
                self.start(broker_id)
            time.sleep(0.2)
        return failed

    def running(self, broker_id: int) -> bool:
        return self.brokers[broker_id].proc.poll() is None

    def signal(self, broker_id: int, sig: signal.Signals) -> None:
        self.brokers[broker_id].proc.send_signal(sig)

    def stop_zookeeper(self) -> None:
        self.zk.stop(keep_data=True)

    def start_zookeeper(self) -> None:
        """Restart ZooKeeper on its address, port and data dir: sessions and znodes survive."""
        self.zk = self._zookeeper(self.zk.data_dir)

    def close(self) -> list[str]:
        """Stop everything this cluster started, whatever state the faults left it in, then its
        network; returns the network's problems (what outlived it, what tried to leave it)."""
        try:
            for broker in self.brokers.values():
                if broker.proc.poll() is None:
                    broker.proc.send_signal(signal.SIGCONT)
                broker.kill()
            self.kazoo.stop()
            self.kazoo.close()
            self.zk.stop()
        finally:
            problems = self.network.close()
        return problems
