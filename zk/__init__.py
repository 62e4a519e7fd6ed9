"""Kafka's kafka.zk: the coordination store (ZooKeeper or the embedded one), the znode paths and
JSON layouts, topic and config administration through it, and its change notifications."""
