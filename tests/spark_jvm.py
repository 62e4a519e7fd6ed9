"""Stopping a SparkSession together with the JVM pyspark launched for it.

Settings that put jars on the driver's classpath (spark.jars.packages, spark.jars) only take
effect when pyspark launches its JVM, and pyspark keeps that JVM for every later session of
the process. Test modules that need different jars (the official connector, josefk's `kafka`
shim: never both) stop it after their session, so the next module starts a JVM of its own.
"""

from __future__ import annotations

from typing import Any


def stop_session_and_jvm(session: Any) -> None:
    from pyspark import SparkContext

    gateway = SparkContext._gateway
    session.stop()
    if gateway is None:
        return
    gateway.shutdown()
    proc = getattr(gateway, "proc", None)
    if proc is not None:
        proc.stdin.close()  # pyspark's JVM exits when its stdin closes
        proc.wait(timeout=60)
    SparkContext._gateway = None
    SparkContext._jvm = None
