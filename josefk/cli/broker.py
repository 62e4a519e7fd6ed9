"""`josefk broker server.properties [--override key=value ...]`, like kafka-server-start.sh.

Every start-up failure (unreadable or invalid config, ZooKeeper unreachable, a locked log
dir, a port in use) ends in one line naming the cause and a non-zero exit, not a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import logging
import os
import resource
import signal
import sys
from importlib import resources
from pathlib import Path

from josefk.cli import log_config
from josefk.cli.version import add_version
from josefk.server.broker import KafkaServer
from josefk.server.config import ConfigError, KafkaConfig

log = logging.getLogger("kafka.server.KafkaServer")


def _parse_override(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected key=value, got {text!r}")
    return key.strip(), value.strip()


def sample_config() -> str:
    """The server.properties shipped in the package (config/server.properties in the source tree)."""
    return resources.files("josefk.config").joinpath("server.properties").read_text()


def main(argv: list[str]) -> int:
    parser = add_version(argparse.ArgumentParser(prog="josefk broker", description="Run a josefk (Kafka) broker."))
    parser.add_argument("config", nargs="?", type=Path, help="server.properties file (required)")
    parser.add_argument("--override", action="append", default=[], type=_parse_override, metavar="KEY=VALUE",
                        help="override a property from the file (repeatable)")
    parser.add_argument("--log-level", help="root logging level: TRACE, DEBUG, INFO (default), WARN, ERROR")
    parser.add_argument("--log-config", type=Path, metavar="FILE",
                        help="a logging dictConfig JSON file (per-logger levels, files) instead of the default, "
                             "config/log-config.json (Kafka's config/log4j.properties)")
    parser.add_argument("--log-dir", type=Path, metavar="DIR",
                        help="where server.log, controller.log, state-change.log, ... go (Kafka's kafka.logs.dir); "
                             "default $LOG_DIR, else ./logs")
    parser.add_argument("--pid-file", type=Path, metavar="FILE",
                        help="write the broker's pid here while it runs (for josefk broker-stop)")
    parser.add_argument("--host-store", type=Path, metavar="SOCKET",
                        help="the coordination store's socket, given by `josefk host` to the brokers it runs "
                             "without ZooKeeper")
    parser.add_argument("--sample-config", action="store_true",
                        help="print the sample server.properties shipped with josefk and exit")
    args = parser.parse_args(argv)
    if args.sample_config:
        sys.stdout.write(sample_config())
        return 0
    if args.config is None:  # as kafka-server-start.sh: no defaulted broker on 9092 writing /tmp/kafka-logs
        print(f"USAGE: josefk broker server.properties [--override property=value]*\n\n{parser.format_help()}",
              end="", file=sys.stderr)
        return 1
    try:
        problem = log_config.configure(args.log_level, args.log_config, log_config.logs_dir(args.log_dir))
    except log_config.LogConfigError as e:
        print(f"josefk broker: {e}", file=sys.stderr)
        return 1
    if problem is not None:
        log.error(problem)
    try:
        config = KafkaConfig.load(args.config, dict(args.override))
    except ConfigError as e:
        print(f"josefk broker: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"josefk broker: cannot read config file {args.config}: {e.strerror or e}", file=sys.stderr)
        return 1
    except UnicodeDecodeError as e:
        print(f"josefk broker: config file {args.config} is not UTF-8 text: {e.reason}", file=sys.stderr)
        return 1
    config.log_values()
    _raise_open_file_limit()
    try:
        import uvloop
        uvloop.install()
    except ImportError:
        pass
    with pid_file(args.pid_file):
        return asyncio.run(_run(config, args.host_store))


def _raise_open_file_limit() -> None:
    """Raise the soft RLIMIT_NOFILE to the hard limit, as the JVM does for Kafka on Linux
    (MaxFDLimit): a broker holds a descriptor per segment and per connection, and the
    usual soft default of 1,024 would cap it near a thousand partitions. Going beyond the
    hard limit is the operator's call (`ulimit -Hn`, LimitNOFILE= in a systemd unit)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError) as e:  # e.g. macOS refuses RLIM_INFINITY
            log.warning("Could not raise the open file limit from %d to %d: %s", soft, hard, e)
    log.info("Open file limit (RLIMIT_NOFILE): %s, hard limit %s", _limit(soft), _limit(hard))


def _limit(value: int) -> str:
    return "unlimited" if value == resource.RLIM_INFINITY else str(value)


@contextlib.contextmanager
def pid_file(path: Path | None):
    """Write this process's pid to `path` for the run; remove it after, if it is still ours."""
    if path is None:
        yield
        return
    pid = str(os.getpid())
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(pid + "\n")
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            if path.read_text().strip() == pid:
                path.unlink()


async def _run(config: KafkaConfig, host_store: Path | None) -> int:
    server = KafkaServer(config, host_store)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    startup = asyncio.ensure_future(server.startup())
    stopping = asyncio.ensure_future(stop.wait())
    await asyncio.wait({startup, stopping}, return_when=asyncio.FIRST_COMPLETED)
    if not startup.done():  # SIGTERM while starting (waiting for ZooKeeper or a broker id): stop now
        log.info("Shutdown requested during start-up")
        startup.cancel()
        await asyncio.gather(startup, return_exceptions=True)
        await server.shutdown()
        return 0
    try:
        startup.result()
    except Exception as e:  # noqa: BLE001 - a port in use, ZooKeeper unreachable, a locked log dir
        stopping.cancel()
        log.critical("Fatal error during KafkaServer startup: %s", _cause(e))
        await server.shutdown()
        return 1
    # Start-up leaves a large, long-lived heap (message schemas, generated codecs): move it
    # out of the collector's reach so full collections do not pause request handling.
    gc.freeze()
    store_gone = asyncio.ensure_future(server.host_store_gone.wait())
    await asyncio.wait({stopping, store_gone}, return_when=asyncio.FIRST_COMPLETED)
    stopping.cancel()
    store_gone.cancel()
    if server.host_store_gone.is_set():  # `josefk host` is gone, and with it this broker's registration
        log.critical("The host's coordination store closed; shutting down")
        await server.shutdown()
        return 1
    await server.shutdown()
    return 0


def _cause(error: BaseException) -> str:
    """One line: the exception's message, or its type when it has none."""
    text = " ".join(str(error).split())
    return text or type(error).__name__
