"""`josefk delegation-tokens` beside Kafka 3.9.2's own kafka-delegation-tokens tool
(org.apache.kafka.tools.DelegationTokenCommand): both tools against both brokers (Kafka 3.9.2
and josefk, SASL_PLAINTEXT with PLAIN users, the differential token suite's settings), the same
commands, the same output once each token's random id and HMAC and the clock's dates are
replaced by placeholders."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from josefk.cli.tools import delegation_tokens
from josefk.cli.tools.common import ToolError, jaas_credentials
from tests.differential import sasl_pair
from tests.test_cli_kafka_tools import josefk, kafka_tool
from tests.test_differential_tokens import ACLS, PASSWORDS, SETTINGS

pytestmark = pytest.mark.cluster

TOOL = "org.apache.kafka.tools.DelegationTokenCommand"
Runner = Callable[..., "tuple[int, str, str]"]


@pytest.fixture(scope="module")
def brokers() -> Iterator[dict[str, str]]:
    """SASL_PLAINTEXT bootstrap of each broker, and their PLAINTEXT ones."""
    with sasl_pair("josefk-token-tool-", SETTINGS, ACLS) as pair:
        yield {"josefk": pair.josefk_sasl, "Kafka": pair.kafka_sasl, "josefk-plain": pair.josefk_bootstrap,
               "Kafka-plain": pair.kafka_bootstrap}


def command_config(tmp_path: Path, user: str) -> str:
    path = tmp_path / f"{user}.properties"
    path.write_text("security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\n"
                    "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required "
                    f'username="{user}" password="{PASSWORDS[user]}";\n')
    return str(path)


def run(tool: str, *args: str) -> tuple[int, str, str]:
    r = josefk("delegation-tokens", *args) if tool == "josefk" else kafka_tool(TOOL, *args)
    return r.returncode, r.stdout, r.stderr


class Placeholders:
    """Token ids and HMACs numbered by first appearance, dates blanked: what differs between
    two correct runs."""

    def __init__(self) -> None:
        self.seen: dict[str, str] = {}

    def __call__(self, text: str) -> str:
        def number(kind: str) -> Callable[[re.Match[str]], str]:
            return lambda m: self.seen.setdefault(m.group(0), f"<{kind}{len(self.seen)}>")

        text = re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d", "<date>", text)
        text = re.sub(r"(?<=tokenId : )\S+|(?<=\n)\S{10,}(?= )", number("id"), text)
        return re.sub(r"(?<=hmac :)\S+|(?<=<id\d> )\S+|(?<=<id\d\d> )\S+", number("hmac"), text)


def session(tool: str, bootstrap: str, tmp_path: Path) -> list[str]:
    """Create (alice, bob as renewer), describe, renew, expire, describe; each command's exit
    status and output with placeholders."""
    alice = command_config(tmp_path, "alice")
    common = ("--bootstrap-server", bootstrap, "--command-config", alice)
    place = Placeholders()
    outputs = []
    code, out, err = run(tool, *common, "--create", "--max-life-time-period", "-1", "--renewer-principal", "User:bob")
    outputs.append(f"{code} {place(out)}")
    hmac = re.search(r"\n\S+\s+(\S+)\s+User:alice", out)
    assert code == 0 and hmac, (out, err)
    for args in (("--describe", "--owner-principal", "User:alice"),
                 ("--renew", "--hmac", hmac.group(1), "--renew-time-period", "-1"),
                 ("--expire", "--hmac", hmac.group(1), "--expiry-time-period", "-1"),
                 ("--describe", "--owner-principal", "User:alice"),
                 ("--describe",)):
        code, out, err = run(tool, *common, *args)
        outputs.append(f"{code} {place(out)} {err.splitlines()[:1]}")
    return outputs


def test_both_tools_print_the_same_on_both_brokers(brokers: dict[str, str], tmp_path: Path) -> None:
    runs = {(tool, broker): session(tool, brokers[broker], tmp_path)
            for tool in ("Kafka", "josefk") for broker in ("Kafka", "josefk")}
    reference = runs[("Kafka", "Kafka")]
    assert "Total number of tokens : 1" in reference[1] and "Total number of tokens : 0" in reference[4]
    for key, outputs in runs.items():
        assert outputs == reference, key


def test_a_plaintext_connection_is_refused_as_kafka_refuses_it(brokers: dict[str, str], tmp_path: Path) -> None:
    plain = tmp_path / "plain.properties"
    plain.write_text("security.protocol=PLAINTEXT\n")
    results = {}
    for tool in ("Kafka", "josefk"):
        for broker in ("Kafka-plain", "josefk-plain"):
            code, out, err = run(tool, "--bootstrap-server", brokers[broker], "--command-config", str(plain),
                                 "--create", "--max-life-time-period", "-1")
            results[(tool, broker)] = (code, err.splitlines()[0] if err else "")
    expected = (1, "org.apache.kafka.common.errors.UnsupportedByAuthenticationException: Delegation Token requests "
                   "are not allowed on PLAINTEXT/1-way SSL channels and on delegation token authenticated channels.")
    assert results == dict.fromkeys(results, expected)


@pytest.mark.parametrize(("args", "message"), [
    (("--bootstrap-server", "127.0.0.1:1", "--command-config", "x"),
     "Command must include exactly one action: --create, --renew, --expire or --describe"),
    (("--bootstrap-server", "127.0.0.1:1", "--create", "--max-life-time-period", "1"),
     'Missing required argument "[command-config]"'),
    (("--bootstrap-server", "127.0.0.1:1", "--command-config", "x", "--renew", "--hmac", "AA=="),
     'Missing required argument "[renew-time-period]"'),
    (("--bootstrap-server", "127.0.0.1:1", "--command-config", "x", "--describe", "--hmac", "AA=="),
     'Option "[describe]" can\'t be used with option "[hmac]"'),
])
def test_usage_errors_name_the_option(args: tuple[str, ...], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        delegation_tokens.main(list(args))
    assert exit_.value.code != 0 and message in capsys.readouterr().err


def test_jaas_credentials_as_java_clients_write_them() -> None:
    scram = 'org.apache.kafka.common.security.scram.ScramLoginModule required username="alice" password="a b;c";'
    assert jaas_credentials(scram) == {"sasl_plain_username": "alice", "sasl_plain_password": "a b;c"}
    assert jaas_credentials("org.apache.kafka.common.security.plain.PlainLoginModule required username=bob "
                            "password=secret;") == {"sasl_plain_username": "bob", "sasl_plain_password": "secret"}
    with pytest.raises(ToolError, match="no password"):
        jaas_credentials('org.apache.kafka.common.security.plain.PlainLoginModule required username="bob";')
    with pytest.raises(ToolError, match="sasl.jaas.config"):
        jaas_credentials("com.example.Login required;")
