"""Client quotas as Kafka's: byte rates for Produce and Fetch, request_percentage for
handler time, per user and client-id, read from ZooKeeper's /config/users and /config/clients."""
