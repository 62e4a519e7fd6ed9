"""The JVM shim that makes format("kafka") run on josefk.spark without the official connector.

Spark refuses a Python data source named "kafka", so a tiny Java DataSourceRegister
(jvm/josefk/spark/KafkaFormat.java, shortName "kafka") forwards to the Python source "josefk".
It is compiled with javac against pyspark's own jars on first use and cached:

    python -m josefk.spark.shim          # builds it; prints the spark-submit flags

The session also needs "kafka" removed from spark.sql.sources.useV1SourceList (it is there by
default, which sends the name down the V1 path); spark_conf() gives both settings."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any

SOURCE = Path(__file__).parent / "jvm" / "josefk" / "spark" / "KafkaFormat.java"
V1_SOURCES = "avro,csv,json,orc,parquet,text"  # Spark's default list minus kafka
SERVICE = "META-INF/services/org.apache.spark.sql.sources.DataSourceRegister"


def _pyspark_jars() -> Path:
    import pyspark
    return Path(pyspark.__file__).parent / "jars"


def _javac() -> str:
    home = os.environ.get("JAVA_HOME")
    found = str(Path(home) / "bin" / "javac") if home and (Path(home) / "bin" / "javac").exists() else None
    found = found or shutil.which("javac")
    if not found:
        raise RuntimeError("javac not found: install a JDK 17+ or set JAVA_HOME")
    return found


def cache_dir() -> Path:
    """Where built shims live: $JOSEFK_SPARK_SHIM_DIR, else ~/.cache/josefk/spark."""
    env = os.environ.get("JOSEFK_SPARK_SHIM_DIR")
    return Path(env) if env else Path.home() / ".cache" / "josefk" / "spark"


def shim_jar() -> str:
    """Path of the shim jar for this pyspark and Python, building it if needed."""
    import pyspark

    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    digest = hashlib.sha256(SOURCE.read_bytes() + f"{pyspark.__version__}|{sys.executable}".encode()).hexdigest()
    jar = cache_dir() / f"josefk-spark-shim-{pyspark.__version__}-{digest[:12]}.jar"
    if jar.exists():
        return str(jar)
    jar.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        classes = Path(tmp) / "classes"
        proc = subprocess.run([_javac(), "--release", "17", "-nowarn", "-d", str(classes),
                               "-cp", str(_pyspark_jars() / "*"), str(SOURCE)], capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"javac failed building the josefk Spark shim:\n{proc.stderr}")
        partial = Path(tmp) / jar.name
        with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as z:
            for f in sorted(classes.rglob("*.class")):
                z.write(f, f.relative_to(classes).as_posix())
            z.writestr(SERVICE, "josefk.spark.KafkaFormat\n")
            z.writestr("josefk-spark-shim.properties", f"python.exec={sys.executable}\npython.version={version}\n")
        shutil.move(str(partial), jar)
    return str(jar)


def spark_conf(existing_jars: str = "") -> dict[str, str]:
    """Session settings that make format("kafka") resolve to josefk.spark."""
    jars = ",".join(j for j in (existing_jars, shim_jar()) if j)
    return {"spark.jars": jars, "spark.sql.sources.useV1SourceList": V1_SOURCES}


def configure(builder: Any) -> Any:
    """SparkSession.builder with the shim on the classpath: builder = configure(builder)."""
    for key, value in spark_conf().items():
        builder = builder.config(key, value)
    return builder


def main() -> None:
    """Build the shim and print the spark-submit flags that use it."""
    conf = spark_conf()
    print(conf["spark.jars"])
    print(" ".join(f"--conf {k}={v}" for k, v in conf.items()), file=sys.stderr)


if __name__ == "__main__":
    main()
