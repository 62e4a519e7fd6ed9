"""josefk: a Kafka broker written in Python.

The subpackages josefk.protocol, josefk.server, josefk.log, josefk.replication and
josefk.coordinator live in the top-level folders of the same names (see pyproject.toml).
"""

__version__ = "0.1.0"
