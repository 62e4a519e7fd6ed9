"""The client side of the inter-broker wire: connections from one broker to another (Kafka's
NetworkClient), used by replica fetchers, the controller channel and the coordinators."""
