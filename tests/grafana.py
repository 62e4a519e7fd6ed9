"""What Grafana does with a dashboard's queries before Prometheus sees them, for
tests/test_dashboard.py: its variables substituted ($__rate_interval, $__range, template
variables as their current or All value, regex-escaped as its Prometheus data source does)
and series named by each target's legendFormat."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

_VARIABLE = re.compile(r"\$\{(\w+)(?::\w+)?\}|\$(\w+)|\[\[(\w+)\]\]")
_LEGEND = re.compile(r"\{\{\s*(\w+)\s*\}\}")
_REGEX_SPECIAL = re.compile(r"[$^*{}\[\]'+?.()|]")


@dataclass(frozen=True)
class TimeRange:
    """The dashboard's time range and the data source's scrape interval (its "Scrape interval"
    setting, which Grafana takes as the lowest $__interval), in seconds."""
    start: float
    end: float
    scrape_interval_s: int
    max_data_points: int = 1000  # about a panel's width in pixels

    @property
    def interval_s(self) -> int:
        """$__interval: the range over the panel's points, never below the scrape interval.
        Grafana also rounds it to a round value; dashboards drawn here span under a few
        minutes, where the scrape interval is the answer."""
        per_point = (self.end - self.start) / self.max_data_points
        if per_point > self.scrape_interval_s:
            raise ValueError(f"a {self.end - self.start:.0f} s range needs Grafana's interval rounding")
        return self.scrape_interval_s

    @property
    def rate_interval_s(self) -> int:
        """$__rate_interval: max($__interval + scrape interval, 4 * scrape interval)."""
        return max(self.interval_s + self.scrape_interval_s, 4 * self.scrape_interval_s)


def regular_escape(value: str) -> str:
    """Grafana's prometheusRegularEscape, for a single-value variable."""
    return value.replace("\\", "\\\\").replace("'", "\\\\'")


def regex_escape(value: str) -> str:
    """Grafana's prometheusSpecialRegexEscape (its classic escaping, without the
    prometheusSpecialCharsInLabelValues feature toggle): a multi-value variable's value inside a
    PromQL string that is a regex (a backslash for the regex, doubled for the string)."""
    return _REGEX_SPECIAL.sub(lambda m: "\\\\" + m.group(), value.replace("\\", "\\\\\\\\"))


def template_values(templating: dict[str, Any], datasource_uid: str) -> dict[str, str]:
    """Each variable as Grafana writes it into a query when the dashboard opens: its saved
    current value, else All (the allValue, unescaped) when it has one, else its first option."""
    values: dict[str, str] = {}
    for variable in templating["list"]:
        name = variable["name"]
        if variable["type"] == "datasource":
            values[name] = datasource_uid
            continue
        current = variable.get("current", {}).get("value")
        if current is None and variable.get("includeAll"):
            values[name] = variable.get("allValue") or ".*"
            continue
        if current is None:
            current = str(variable["query"]).split(",")[0]
        chosen = current if isinstance(current, list) else [current]
        if not variable.get("multi") and not variable.get("includeAll"):
            values[name] = regular_escape(chosen[0])
            continue
        escaped = [regex_escape(v) for v in chosen]
        values[name] = escaped[0] if len(escaped) == 1 else "(" + "|".join(escaped) + ")"
    return values


def interpolate(expr: str, values: dict[str, str]) -> str:
    """`expr` with every $name, ${name} and [[name]] replaced; an unknown variable is an error,
    as Prometheus would refuse the query anyway."""
    def value(m: re.Match[str]) -> str:
        name = m.group(1) or m.group(2) or m.group(3)
        if name not in values:
            raise KeyError(f"no value for ${name} in {expr!r}")
        return values[name]

    return _VARIABLE.sub(value, expr)


def builtin_values(time_range: TimeRange) -> dict[str, str]:
    return {"__interval": f"{time_range.interval_s}s", "__rate_interval": f"{time_range.rate_interval_s}s",
            "__range": f"{round(time_range.end - time_range.start)}s"}


def legend(legend_format: str | None, labels: dict[str, str], expr: str) -> str:
    """A series' name: legendFormat's {{label}} filled in; without one, Grafana's
    metric{label="value",...}, or the expression for a series with no labels."""
    if legend_format:
        return _LEGEND.sub(lambda m: labels.get(m.group(1), ""), legend_format)
    rest = {k: v for k, v in labels.items() if k != "__name__"}
    if not labels:
        return expr
    inner = ", ".join(f'{k}="{v}"' for k, v in sorted(rest.items()))
    return labels.get("__name__", "") + ("{" + inner + "}" if inner else "")
