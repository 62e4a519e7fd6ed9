"""josefk's own Kafka message layer: typed, versioned dataclasses generated from Kafka's JSON
message specs (generator.py, specs/), with straight-line encoders and decoders per version.
The entry points are in api.py; docs/architecture.md ("Message layer") says why and how it is
regenerated. Nothing is imported here, so the generator runs even when generated/ is stale."""
