"""`josefk console`: a web console for a Kafka cluster, in the spirit of Kafka Manager and AKHQ.

It is a separate process that talks to the cluster over the Kafka protocol only (kafka-python's
admin client and consumer), so it serves a single josefk broker, a ZooKeeper cluster of them and
Apache Kafka alike; live charts read the brokers' Prometheus `/metrics`.
"""
