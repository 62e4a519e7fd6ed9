"""`josefk broker [server.properties] [--override key=value ...]`, like kafka-server-start.sh."""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import signal
import sys
from pathlib import Path

from josefk.server.broker import KafkaServer
from josefk.server.config import ConfigError, KafkaConfig


def _parse_override(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected key=value, got {text!r}")
    return key.strip(), value.strip()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="josefk broker", description="Run a josefk (Kafka) broker.")
    parser.add_argument("config", nargs="?", type=Path, help="server.properties file")
    parser.add_argument("--override", action="append", default=[], type=_parse_override, metavar="KEY=VALUE",
                        help="override a property from the file (repeatable)")
    parser.add_argument("--log-level", default="INFO", help="logging level (default INFO)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=args.log_level.upper(), stream=sys.stdout,
                        format="[%(asctime)s] %(levelname)s %(message)s (%(name)s)")
    if args.config is not None and not args.config.is_file():
        print(f"josefk broker: config file {args.config} not found", file=sys.stderr)
        return 1
    try:
        config = KafkaConfig.load(args.config, dict(args.override))
    except ConfigError as e:
        print(f"josefk broker: {e}", file=sys.stderr)
        return 1
    try:
        import uvloop
        uvloop.install()
    except ImportError:
        pass
    return asyncio.run(_run(config))


async def _run(config: KafkaConfig) -> int:
    server = KafkaServer(config)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        await server.startup()
    except Exception as e:  # noqa: BLE001 - a port in use, ZooKeeper unreachable, an id already registered
        logging.error("Start-up failed: %s", str(e) or type(e).__name__)
        await server.shutdown()
        return 1
    # Start-up leaves a large, long-lived heap (message schemas, generated codecs): move it
    # out of the collector's reach so full collections do not pause request handling.
    gc.freeze()
    await stop.wait()
    await server.shutdown()
    return 0
