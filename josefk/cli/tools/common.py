"""Helpers shared by the Kafka-style command-line tools.

The tools are plain Kafka clients (kafka-python), so they work against any
Kafka-compatible broker. These helpers translate Kafka's Java-style client
properties, keep connection attempts bounded and turn client exceptions into
the one-line messages Kafka's own tools print.
"""

from __future__ import annotations

import argparse
import base64
import logging
import re
import sys
import uuid
from collections.abc import Iterable
from typing import Any

import kafka.errors as Errors

from josefk.cli.version import add_version

DEFAULT_TIMEOUT_MS = 10_000
"""How long a tool waits for the first broker connection before giving up."""


class ToolError(Exception):
    """An error whose message is meant for the user, printed without a traceback."""

    def __init__(self, message: str, java: str = "java.lang.IllegalArgumentException") -> None:
        super().__init__(message)
        self.java = java


def quiet_client_logs() -> None:
    """Stop kafka-python's connection warnings from cluttering the tools' output."""
    logging.getLogger("kafka").addHandler(logging.NullHandler())
    logging.getLogger("kafka").propagate = False


def parser(prog: str, description: str) -> argparse.ArgumentParser:
    """An ArgumentParser named like the josefk sub-command (errors exit with status 2)."""
    return add_version(argparse.ArgumentParser(prog=f"josefk {prog}", description=description))


def key_value(text: str) -> tuple[str, str]:
    """argparse type for `key=value` arguments."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected key=value, got {text!r}")
    return key.strip(), value


def load_properties(path: str | None) -> dict[str, str]:
    """Read a Java .properties file (the `--command-config` / `--producer.config` files)."""
    props: dict[str, str] = {}
    if not path:
        return props
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise ToolError(f"Cannot read config file {path}: {e.strerror}") from e
    for line in lines:
        line = line.strip()
        if not line or line[0] in "#!":
            continue
        m = re.match(r"([^=:\s]+)\s*[=:\s]\s*(.*)", line)
        if m:
            props[m.group(1)] = m.group(2)
    return props


def client_config(props: dict[str, str], defaults: dict[str, Any]) -> dict[str, Any]:
    """Map Java client property names (`linger.ms`) onto kafka-python keywords (`linger_ms`).

    Values are converted to the type of the client's default; unknown names are
    rejected so a typo doesn't silently do nothing.
    """
    out: dict[str, Any] = {}
    for key, raw in props.items():
        if key == "sasl.jaas.config":
            out.update(jaas_credentials(raw))
            continue
        name = key.replace(".", "_").replace("-", "_")
        if name not in defaults and name != "default_api_timeout_ms":
            raise ToolError(f"Unknown client property {key!r}")
        default = defaults.get(name, 0)
        value: Any = raw
        if isinstance(default, bool):
            value = raw.strip().lower() == "true"
        elif isinstance(default, int) or name.endswith(("_ms", "_bytes", "_size", "_records", "_count")):
            try:
                value = int(raw)
            except ValueError:
                try:
                    value = float(raw)
                except ValueError:
                    raise ToolError(f"Invalid value {raw} for configuration {key}: Not a number") from None
        elif name == "acks" and raw not in ("all",):
            value = int(raw)
        elif name == "bootstrap_servers":
            value = raw.split(",")
        out[name] = value
    return out


_JAAS = re.compile(r"""\s*(?P<module>[\w.$]+)\s+(?:required|requisite|sufficient|optional)(?P<options>.*?);?\s*""",
                   re.DOTALL)
_JAAS_OPTION = re.compile(r"""(\w+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s;]+))""")
_JAAS_MODULES = ("org.apache.kafka.common.security.plain.PlainLoginModule",
                 "org.apache.kafka.common.security.scram.ScramLoginModule")


def jaas_credentials(text: str) -> dict[str, str]:
    """The user name and password of a client's `sasl.jaas.config` (PlainLoginModule or
    ScramLoginModule, as Java clients write it) as kafka-python's sasl_plain_* keywords."""
    m = _JAAS.fullmatch(text)
    if m is None or m.group("module") not in _JAAS_MODULES:
        raise ToolError(f"Invalid value for configuration sasl.jaas.config: the tools read the user name and "
                        f"password of {' or '.join(_JAAS_MODULES)}, got {text!r}")
    options = {o.group(1): o.group(2) if o.group(2) is not None else o.group(3)
               for o in _JAAS_OPTION.finditer(m.group("options"))}
    missing = [key for key in ("username", "password") if key not in options]
    if missing:
        raise ToolError(f"Invalid value for configuration sasl.jaas.config: no {' or '.join(missing)}")
    return {"sasl_plain_username": options["username"], "sasl_plain_password": options["password"]}


def admin_client(bootstrap: str, props: dict[str, str] | None = None, timeout_ms: int | None = None) -> Any:
    """Connect a KafkaAdminClient, failing within a bounded time with the address tried."""
    from kafka import KafkaAdminClient

    config = client_config(props or {}, KafkaAdminClient.DEFAULT_CONFIG)
    timeout = int(timeout_ms or config.pop("default_api_timeout_ms", None) or DEFAULT_TIMEOUT_MS)
    config.setdefault("request_timeout_ms", timeout)
    config.setdefault("bootstrap_timeout_ms", timeout)
    config.setdefault("client_id", "josefk-tools")
    try:
        return KafkaAdminClient(bootstrap_servers=bootstrap.split(","), **config)
    except (Errors.KafkaTimeoutError, Errors.KafkaConnectionError) as e:
        raise unreachable(bootstrap, config["bootstrap_timeout_ms"]) from e


def serves(admin: Any, api_key: int) -> bool:
    """Whether the broker the admin client talks to advertises `api_key`. kafka-python 3.0.12's
    admin.api_versions() turns each advertised key into its ApiKey enum, which ends at 92, and
    raises on a newer one (StreamsGroupTopologyDescriptionUpdate, 93, which Kafka 4.4 and josefk
    advertise): the raw map is read instead."""
    return api_key in admin._manager.broker_version_data.api_versions  # noqa: SLF001


def unreachable(bootstrap: str, timeout_ms: int) -> ToolError:
    """The error for a broker that can't be reached, naming the address tried."""
    return ToolError(f"Timed out waiting for a node assignment: could not connect to the broker at "
                     f"{bootstrap} within {timeout_ms} ms. Is the broker running and is "
                     f"--bootstrap-server correct?")


def java_exception(err: BaseException) -> str:
    """Kafka's Java exception name for a kafka-python error (`TopicAlreadyExistsError` -> ...Exception)."""
    if isinstance(err, ToolError):
        return err.java
    name = type(err).__name__.replace("AuthorizationFailed", "Authorization")  # ClusterAuthorizationException
    if name.endswith("Error"):
        name = name[: -len("Error")] + "Exception"
    return f"org.apache.kafka.common.errors.{name}"


def error_text(err: BaseException) -> str:
    """A one-line message for a client error: the broker's text if any, else the error's description."""
    if isinstance(err, ToolError):
        return str(err)
    msg = str(err)
    if isinstance(err, Errors.KafkaError):
        m = re.search(r"error_message='([^']*)'", msg)
        if m and m.group(1):
            return m.group(1)
        msg = re.sub(r"^\[Error -?\d+\] \w+: ?", "", msg)
        if not msg or "Request '" in msg or msg == type(err).__name__:
            return getattr(err, "description", None) or type(err).__name__
    return msg or type(err).__name__


def check_error(code: int, message: str | None = None) -> None:
    """Raise the kafka-python error for a non-zero error code, keeping the broker's message."""
    if code:
        cls = Errors.for_code(code)
        raise cls(f"error_message='{message or cls.description}'")


def kafka_uuid(value: Any) -> str:
    """Render a topic id the way Kafka does: URL-safe base64 without padding."""
    if value is None:
        return "AAAAAAAAAAAAAAAAAAAAAA"
    try:
        u = value if isinstance(value, uuid.UUID) else uuid.UUID(str(value))
    except ValueError:
        return str(value)
    return base64.urlsafe_b64encode(u.bytes).decode().rstrip("=")


def match_topics(names: Iterable[str], pattern: str | None, exclude_internal: bool = False) -> list[str]:
    """Topics whose full name matches `pattern` as a regex, as Kafka's --topic does for list/describe."""
    out = []
    for name in sorted(names):
        if exclude_internal and name.startswith("__"):
            continue
        if pattern is None or name == pattern or _full_match(pattern, name):
            out.append(name)
    return out


def _full_match(pattern: str, name: str) -> bool:
    try:
        return re.fullmatch(pattern, name) is not None
    except re.error:
        return False


def fail(prefix: str, err: BaseException) -> int:
    """Print `<prefix><message>` to stderr and return Kafka's failure exit status."""
    print(f"{prefix}{error_text(err)}", file=sys.stderr)
    return 1


def kafka_client(cls: Any, bootstrap: str, props: dict[str, str], **defaults: Any) -> Any:
    """Build a KafkaProducer/KafkaConsumer from Java-style properties, bounded bootstrap time.

    `defaults` are the tool's own settings; properties given by the user win.
    """
    config = {**defaults, **client_config(props, cls.DEFAULT_CONFIG)}
    # Kafka's clients bound the first metadata fetch by max.block.ms / default.api.timeout.ms.
    bounded = config.pop("default_api_timeout_ms", None) or (
        config["max_block_ms"] if "max.block.ms" in props else None)
    config.setdefault("bootstrap_timeout_ms", int(bounded or DEFAULT_TIMEOUT_MS))
    config.setdefault("client_id", "josefk-tools")
    try:
        return cls(bootstrap_servers=bootstrap.split(","), **config)
    except (Errors.KafkaTimeoutError, Errors.KafkaConnectionError) as e:
        raise unreachable(bootstrap, config["bootstrap_timeout_ms"]) from e


def unescape(text: str) -> str:
    """Interpret `\\t`, `\\n` in --property values the way Kafka's tools do."""
    return text.encode("utf-8").decode("unicode_escape") if "\\" in text else text
