"""The broker's logging: Kafka's level names and log4j layout, or a dictConfig JSON file.

Kafka's config/log4j.properties prints `[%d] %p %m (%c)%n`, e.g.
`[2026-11-26 03:14:07,123] WARN message (kafka.server.KafkaServer)`; operators grep for
WARN and FATAL, so those names replace Python's WARNING and CRITICAL. TRACE (5) sits below
DEBUG as in log4j.
"""

from __future__ import annotations

import json
import logging
import logging.config
import sys
from pathlib import Path

TRACE = 5
LAYOUT = "[%(asctime)s] %(levelname)s %(message)s (%(name)s)"
KAFKA_LEVEL_NAMES = {TRACE: "TRACE", logging.WARNING: "WARN", logging.CRITICAL: "FATAL"}


class LogConfigError(ValueError):
    """The --log-config file cannot be read or is not a valid dictConfig."""


def level_of(name: str) -> int:
    """A level by Kafka's or Python's name (WARN or WARNING, TRACE, FATAL), any case."""
    _install_level_names()
    level = logging.getLevelName(name.strip().upper())
    if not isinstance(level, int):
        raise LogConfigError(f"unknown log level {name!r}; use TRACE, DEBUG, INFO, WARN, ERROR or FATAL")
    return level


def configure(level: str | None, config_file: Path | None) -> None:
    """Log to stdout in Kafka's layout at `level` (INFO by default), or as `config_file` says
    (a logging.config.dictConfig JSON document; `level`, when given, then sets the root)."""
    _install_level_names()
    if config_file is None:
        logging.basicConfig(level=level_of(level or "INFO"), stream=sys.stdout, format=LAYOUT, force=True)
        return
    try:
        document = json.loads(config_file.read_text())
    except OSError as e:
        raise LogConfigError(f"cannot read log config {config_file}: {e.strerror or e}") from None
    except ValueError as e:
        raise LogConfigError(f"log config {config_file} is not JSON: {e}") from None
    if not isinstance(document, dict):
        raise LogConfigError(f"log config {config_file} must be a JSON object (a logging dictConfig)")
    document.setdefault("version", 1)
    # The broker's modules (and their loggers) are imported by now: dictConfig's default would
    # silence every one the file does not name.
    document.setdefault("disable_existing_loggers", False)
    _make_log_dirs(document)
    try:
        logging.config.dictConfig(document)
    except (ValueError, TypeError, AttributeError, ImportError, OSError) as e:
        cause = e.__cause__ or e
        raise LogConfigError(f"invalid log config {config_file}: {e} ({cause})" if cause is not e
                             else f"invalid log config {config_file}: {e}") from None
    if level is not None:
        logging.getLogger().setLevel(level_of(level))


def _make_log_dirs(document: dict) -> None:
    """Create the folders of file handlers' files (logs/ in config/log-config.json), as log4j does.
    A relative filename is relative to the working directory, as in Python's handlers."""
    handlers = document.get("handlers")
    if not isinstance(handlers, dict):
        return
    for handler in handlers.values():
        filename = handler.get("filename") if isinstance(handler, dict) else None
        if isinstance(filename, str):
            try:
                Path(filename).parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise LogConfigError(f"cannot create the folder of log file {filename}: {e.strerror or e}") from None


def _install_level_names() -> None:
    for number, name in KAFKA_LEVEL_NAMES.items():
        logging.addLevelName(number, name)
