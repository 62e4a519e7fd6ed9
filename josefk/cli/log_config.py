"""The broker's logging: Kafka's files, level names, logger names and log4j layout.

By default the broker logs as Kafka 3.9's config/log4j.properties has it (the packaged
config/log-config.json is that file as a logging dictConfig): server.log, controller.log,
state-change.log, log-cleaner.log, kafka-request.log and kafka-authorizer.log under the log
directory (Kafka's kafka.logs.dir: --log-dir, else $LOG_DIR as in kafka-run-class.sh, else
./logs), each rolled hourly, and stdout with what Kafka's stdout appender gets. The layout
is `[%d] %p %m (%c)%n`, e.g. `[2026-11-26 03:14:07,123] WARN message (kafka.server.KafkaServer)`;
operators grep for WARN and FATAL, so those names replace Python's WARNING and CRITICAL, and
TRACE (5) sits below DEBUG as in log4j. `${kafka.logs.dir}` in a handler's filename is the
log directory, in the packaged file and in one given with --log-config.
"""

from __future__ import annotations

import json
import logging
import logging.config
import os
from importlib import resources
from pathlib import Path

from josefk.cli.kafka_loggers import route_josefk_loggers

TRACE = 5
LAYOUT = "[%(asctime)s] %(levelname)s %(message)s (%(name)s)"
KAFKA_LEVEL_NAMES = {TRACE: "TRACE", logging.WARNING: "WARN", logging.CRITICAL: "FATAL"}
LOGS_DIR_PLACEHOLDER = "${kafka.logs.dir}"
# What --log-level sets: log4j.properties' "general broker logging level" lines and the root.
GENERAL_LOGGERS = ("", "kafka", "org.apache.kafka")


class LogConfigError(ValueError):
    """The --log-config file cannot be read or is not a valid dictConfig."""


def level_of(name: str) -> int:
    """A level by Kafka's or Python's name (WARN or WARNING, TRACE, FATAL), any case."""
    _install_level_names()
    level = logging.getLevelName(name.strip().upper())
    if not isinstance(level, int):
        raise LogConfigError(f"unknown log level {name!r}; use TRACE, DEBUG, INFO, WARN, ERROR or FATAL")
    return level


def logs_dir(option: Path | None) -> Path:
    """Kafka's kafka.logs.dir: the --log-dir option, else $LOG_DIR, else ./logs."""
    if option is not None:
        return option
    return Path(os.environ.get("LOG_DIR") or "logs")


def configure(level: str | None, config_file: Path | None, log_dir: Path) -> str | None:
    """Log as Kafka's config/log4j.properties does, or as `config_file` says (a
    logging.config.dictConfig JSON document); `level`, when given, sets the root and the
    kafka and org.apache.kafka loggers, leaving the ones with files of their own as they are.

    Returns what went wrong when the default's files cannot be written in `log_dir` (a
    service started in / by a user who cannot write there): the broker then logs everything
    to stdout, as log4j goes on without a file it cannot open. A bad `config_file` raises."""
    _install_level_names()
    problem = None
    if config_file is None:
        try:
            _apply(_default_document(), None, log_dir)
        except LogConfigError as e:
            problem = f"{e}; logging to stdout only"
            _apply(_stdout_only(_default_document()), None, log_dir)
    else:
        _apply(_read(config_file), config_file, log_dir)
    if level is not None:
        for name in GENERAL_LOGGERS:
            logging.getLogger(name).setLevel(level_of(level))
    route_josefk_loggers()
    return problem


def _default_document() -> dict:
    return json.loads(resources.files("josefk.config").joinpath("log-config.json").read_text())


def _apply(document: dict, config_file: Path | None, log_dir: Path) -> None:
    document.setdefault("version", 1)
    # The broker's modules (and their loggers) are imported by now: dictConfig's default would
    # silence every one the file does not name.
    document.setdefault("disable_existing_loggers", False)
    _place_files(document, log_dir)
    try:
        logging.config.dictConfig(document)
    except (ValueError, TypeError, AttributeError, ImportError, OSError) as e:
        cause = e.__cause__ or e
        what = f"invalid log config {config_file}" if config_file else f"cannot write the log files in {log_dir}"
        raise LogConfigError(f"{what}: {e} ({cause})" if cause is not e else f"{what}: {e}") from None


def _stdout_only(document: dict) -> dict:
    """The default config with every file handler's loggers writing to stdout instead."""
    handlers = {name: h for name, h in document["handlers"].items() if "filename" not in h}
    for logger in [*document["loggers"].values(), document["root"]]:
        if "handlers" in logger:
            logger["handlers"] = list(dict.fromkeys(h if h in handlers else "stdout" for h in logger["handlers"]))
    document["handlers"] = handlers
    return document


def _read(config_file: Path) -> dict:
    try:
        document = json.loads(config_file.read_text())
    except OSError as e:
        raise LogConfigError(f"cannot read log config {config_file}: {e.strerror or e}") from None
    except ValueError as e:
        raise LogConfigError(f"log config {config_file} is not JSON: {e}") from None
    if not isinstance(document, dict):
        raise LogConfigError(f"log config {config_file} must be a JSON object (a logging dictConfig)")
    return document


def _place_files(document: dict, log_dir: Path) -> None:
    """Put `${kafka.logs.dir}` files in `log_dir` and create the folders of file handlers' files,
    as log4j does. A relative filename is relative to the working directory, as in Python's handlers."""
    handlers = document.get("handlers")
    if not isinstance(handlers, dict):
        return
    for handler in handlers.values():
        filename = handler.get("filename") if isinstance(handler, dict) else None
        if isinstance(filename, str):
            filename = handler["filename"] = filename.replace(LOGS_DIR_PLACEHOLDER, str(log_dir))
            try:
                Path(filename).parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise LogConfigError(f"cannot create the folder of log file {filename}: {e.strerror or e}") from None


def _install_level_names() -> None:
    for number, name in KAFKA_LEVEL_NAMES.items():
        logging.addLevelName(number, name)
