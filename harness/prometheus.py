"""A real Prometheus (Debian's `prometheus`) on 127.0.0.1 scraping given /metrics endpoints,
its config and TSDB in a directory the caller owns, and its HTTP API as small queries."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from harness.net import free_port
from harness.process import ServerProcess
from harness.wire import wait_until

BINARY = "/usr/bin/prometheus"
JOB = "josefk"


@dataclass(frozen=True)
class Series:
    labels: dict[str, str]
    points: list[tuple[float, float]]  # (unix seconds, value); NaN where a summary had no observation


class Prometheus:
    """Prometheus scraping `targets` (host:port of /metrics) every `scrape_interval_s` seconds."""

    def __init__(self, root: Path, targets: Sequence[str], scrape_interval_s: int = 1) -> None:
        self.scrape_interval_s = scrape_interval_s
        root.mkdir(parents=True, exist_ok=True)
        config = root / "prometheus.yml"
        # JSON is YAML: no YAML writer needed.
        config.write_text(json.dumps({
            "global": {"scrape_interval": f"{scrape_interval_s}s", "scrape_timeout": f"{scrape_interval_s}s",
                       "evaluation_interval": f"{scrape_interval_s}s"},
            "scrape_configs": [{"job_name": JOB, "static_configs": [{"targets": list(targets)}]}]}))
        port = free_port()
        self.server = ServerProcess([BINARY, f"--config.file={config}", f"--storage.tsdb.path={root / 'data'}",
                                     f"--web.listen-address=127.0.0.1:{port}", "--log.level=warn"],
                                    "127.0.0.1", port, output=root / "prometheus.log", what="prometheus")
        self.url = f"http://127.0.0.1:{port}"
        try:  # the port opens before the TSDB is loaded; the API answers 503 until /-/ready says 200
            wait_until(self._ready, "prometheus is ready", timeout=60)
        except BaseException:
            self.stop()
            raise

    def _ready(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.url}/-/ready", timeout=5) as response:
                return response.status == 200
        except urllib.error.HTTPError:
            return False

    def stop(self) -> None:
        self.server.stop()

    def _get(self, path: str, params: dict[str, str]) -> object:
        query = urllib.parse.urlencode(params)
        with urllib.request.urlopen(f"{self.url}{path}?{query}", timeout=30) as response:
            body = json.loads(response.read())
        if body["status"] != "success":
            raise RuntimeError(f"{path} {params}: {body}")
        return body["data"]

    def query(self, expr: str) -> list[Series]:
        """An instant query at the server's now."""
        data = self._get("/api/v1/query", {"query": expr})
        assert isinstance(data, dict) and data["resultType"] == "vector", data
        return [Series(r["metric"], [(r["value"][0], float(r["value"][1]))]) for r in data["result"]]

    def query_range(self, expr: str, start: float, end: float, step_s: float) -> list[Series]:
        data = self._get("/api/v1/query_range", {"query": expr, "start": f"{start:.3f}", "end": f"{end:.3f}",
                                                 "step": f"{step_s}s"})
        assert isinstance(data, dict) and data["resultType"] == "matrix", data
        return [Series(r["metric"], [(t, float(v)) for t, v in r["values"]]) for r in data["result"]]

    def version(self) -> str:
        data = self._get("/api/v1/status/buildinfo", {})
        assert isinstance(data, dict), data
        return str(data["version"])

    def label_values(self, label: str, match: str) -> list[str]:
        """What Grafana's label_values(match, label) lists."""
        data = self._get(f"/api/v1/label/{label}/values", {"match[]": match})
        assert isinstance(data, list), data
        return [str(v) for v in data]
