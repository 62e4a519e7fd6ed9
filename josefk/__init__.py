"""josefk: a Kafka broker written in Python.

The subpackages josefk.protocol, josefk.log, josefk.controller, josefk.replication,
josefk.coordinator and josefk.server live in the top-level folders of the same names (see
pyproject.toml); docs/architecture.md says which may import which.
"""

__version__ = "0.1.0"
