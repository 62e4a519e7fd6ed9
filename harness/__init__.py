"""What tests/, compat/, bench/ and fuzz/ start and talk to, in one place: free ports
(net), josefk broker processes (josefk), a real ZooKeeper (zookeeper), real Apache Kafka
brokers (kafka: 3.9 in ZooKeeper mode, 4.4 in KRaft combined mode), and a raw
Kafka-protocol client built on josefk's codecs (wire). Every process is started on
127.0.0.1 and stopped by its handle."""
