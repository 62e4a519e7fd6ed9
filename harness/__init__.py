"""What tests/, compat/, bench/ and fuzz/ start and talk to, in one place: free ports
(net), josefk broker processes (josefk), a real ZooKeeper (zookeeper), a real Apache Kafka
3.9 broker (kafka), and a raw Kafka-protocol client built on josefk's codecs (wire).
Every process is started on 127.0.0.1 and stopped by its handle."""
