"""The console's HTML pages, rendered on the server from the dicts in cluster.py.

Everything that comes from the cluster (topic names, keys, values, headers, client ids) goes
through `esc`; only strings built here are marked safe with `Html`, so a record value such as
`<script>` is shown, never run.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from string import Template
from typing import Any
from urllib.parse import quote, urlencode

FORMATS = ("text", "hex")


class Html(str):
    """Markup built by this module; `esc` leaves it as it is."""


def esc(value: Any) -> Html:
    if isinstance(value, Html):
        return value
    return Html(html.escape("" if value is None else str(value)))


def join(parts: Iterable[Any]) -> Html:
    return Html("".join(esc(p) for p in parts))


def tag(element: str, content: Any = "", /, **attrs: Any) -> Html:
    """`<element attrs>content</element>`; attribute values are escaped; `cls` stands for `class`."""
    rendered = "".join(f' {"class" if k == "cls" else k.replace("_", "-")}="{html.escape(str(v))}"'
                       for k, v in attrs.items() if v is not None)
    return Html(f"<{element}{rendered}>{esc(content)}</{element}>")


def link(href: str, text: Any) -> Html:
    return tag("a", text, href=href)


def table(table_id: str, headers: Sequence[str], rows: Iterable[Sequence[Any]], empty: str = "None") -> Html:
    """A table whose id the browser tests read; numeric-looking columns are right-aligned by CSS."""
    body = [tag("tr", join(tag("td", cell) for cell in row)) for row in rows]
    if not body:
        body = [tag("tr", tag("td", empty, colspan=len(headers), cls="empty"))]
    return tag("table", join([tag("thead", tag("tr", join(tag("th", h) for h in headers))),
                              tag("tbody", join(body))]), id=table_id)


def stat(name: str, label: str, value: Any, warn: bool = False) -> Html:
    return tag("div", join([tag("div", value, cls="value"), tag("div", label, cls="label")]),
               cls="stat warn" if warn else "stat", data_stat=name)


def dash(value: Any) -> Any:
    return "-" if value is None or value == "" else value


def nodes(ids: Iterable[int]) -> str:
    return ", ".join(str(i) for i in ids) or "-"


def human_bytes(size: int | None) -> str:
    if size is None:
        return "-"
    value = float(size)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if value < 1024 or unit == "TiB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    raise AssertionError("unreachable")


def timestamp(ms: int | None) -> str:
    if ms is None or ms < 0:
        return "-"
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%d %H:%M:%S.%f")[:-3] + " UTC"


def topic_href(name: str, suffix: str = "") -> str:
    return f"/topics/{quote(name, safe='')}{suffix}"


def group_href(group_id: str) -> str:
    return f"/groups/{quote(group_id, safe='')}"


LAYOUT = Template("""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>$title - josefk console</title>
<link rel="stylesheet" href="/static/console.css">
</head><body>
<header><a class="brand" href="/">josefk console</a><nav>$nav</nav><span class="bootstrap">$bootstrap</span></header>
<main>
<h1>$heading</h1>
$banner$body
</main>
$scripts</body></html>
""")

NAV = (("overview", "/", "Overview"), ("topics", "/topics", "Topics"),
       ("partitions", "/partitions", "Under-replicated"), ("groups", "/groups", "Consumer groups"),
       ("acls", "/acls", "ACLs"), ("charts", "/charts", "Live charts"))


EMPTY = Html("")


def layout(section: str, title: str, body: Html, bootstrap: str, heading: Html | None = None,
           scripts: Sequence[str] = (), banner: Html = EMPTY) -> str:
    nav = join(tag("a", label, href=href, cls="active" if key == section else None) for key, href, label in NAV)
    return LAYOUT.substitute(title=esc(title), nav=nav, bootstrap=esc(bootstrap), heading=heading or esc(title),
                             banner=banner, body=body, scripts=join(tag("script", "", src=s) for s in scripts))


def overview(data: dict[str, Any], bootstrap: str) -> str:
    stats = join([
        stat("brokers", "Brokers", len(data["brokers"])),
        stat("controller", "Controller", dash(data["controller_id"] if data["controller_id"] != -1 else None)),
        stat("topics", "Topics", data["topic_count"]),
        stat("partitions", "Partitions", data["partition_count"]),
        stat("under-replicated", "Under-replicated",
             link("/partitions", data["under_replicated"]) if data["under_replicated"] else 0,
             warn=data["under_replicated"] > 0),
        stat("offline", "Offline", link("/partitions", data["offline"]) if data["offline"] else 0,
             warn=data["offline"] > 0),
    ])
    brokers = table("brokers", ["ID", "Host:port", "Rack", "Role"],
                    [[b["id"], f'{b["host"]}:{b["port"]}', dash(b["rack"]),
                      tag("span", "controller", cls="badge") if b["id"] == data["controller_id"] else ""]
                     for b in data["brokers"]])
    body = join([tag("p", join(["Cluster ID ", tag("code", data["cluster_id"] or "-")]), cls="sub"),
                 tag("div", stats, cls="stats"), tag("h2", "Brokers"), brokers])
    return layout("overview", "Overview", body, bootstrap)


def topics(data: dict[str, Any], bootstrap: str, extra: Html = EMPTY, banner: Html = EMPTY) -> str:
    rows = [[join([link(topic_href(t["name"]), t["name"]),
                   join([" ", tag("span", "internal", cls="badge muted")]) if t["internal"] else ""]),
             t["partitions"], t["replication_factor"],
             tag("span", t["under_replicated"], cls="bad") if t["under_replicated"] else 0,
             human_bytes(t["size"])]
            for t in data["topics"]]
    note = "" if data["sizes_available"] else tag(
        "p", "Sizes: the brokers do not answer DescribeLogDirs.", cls="sub note")
    body = join([table("topics", ["Topic", "Partitions", "Replication factor", "Under-replicated", "Size"], rows,
                       empty="No topics"), note, extra])
    return layout("topics", "Topics", body, bootstrap, banner=banner)


def at_risk(data: dict[str, Any], bootstrap: str) -> str:
    rows = [[link(topic_href(p["topic"]), p["topic"]), p["partition"],
             tag("span", "none", cls="bad") if p["offline"] and p["leader"] < 0
             else tag("span", p["leader"], cls="bad") if p["offline"] else p["leader"],
             nodes(p["replicas"]), nodes(p["isr"]), tag("span", nodes(p["out_of_sync"]), cls="bad"),
             ", ".join(s for s, on in (("offline", p["offline"]), ("under-replicated", p["under_replicated"])) if on)]
            for p in data["partitions"]]
    body = join([tag("p", join(["Partitions whose ISR is smaller than their replica set, or whose leader is not "
                                "a live broker (live: ", nodes(data["live_brokers"]), ")."]), cls="sub"),
                 table("at-risk", ["Topic", "Partition", "Leader", "Replicas", "ISR", "Out of sync", "Status"], rows,
                       empty="Every partition is fully replicated and led")])
    return layout("partitions", "Under-replicated and offline partitions", body, bootstrap)


def topic(data: dict[str, Any], bootstrap: str, extra: Html = EMPTY, banner: Html = EMPTY) -> str:
    name = data["name"]
    parts = data["partitions"]
    messages = sum((p["end_offset"] or 0) - (p["start_offset"] or 0) for p in parts)
    stats = join([stat("partitions", "Partitions", len(parts)),
                  stat("replication-factor", "Replication factor", max((len(p["replicas"]) for p in parts), default=0)),
                  stat("messages", "Messages (end - start)", messages),
                  stat("under-replicated", "Under-replicated",
                       sum(1 for p in parts if len(p["isr"]) < len(p["replicas"])))])
    partitions = table("partitions", ["Partition", "Leader", "Replicas", "ISR", "Log start offset", "Log end offset",
                                      ""],
                       [[p["partition"], p["leader"] if p["leader"] >= 0 else tag("span", "none", cls="bad"),
                         nodes(p["replicas"]),
                         tag("span", nodes(p["isr"]), cls="bad") if len(p["isr"]) < len(p["replicas"])
                         else nodes(p["isr"]),
                         dash(p["start_offset"]), dash(p["end_offset"]),
                         link(topic_href(name, f"/messages?partition={p['partition']}"), "messages")]
                        for p in parts])
    if data["configs"] is None:
        configs = tag("p", "The brokers do not answer DescribeConfigs.", cls="sub")
    else:
        configs = table("configs", ["Name", "Value", "Source"],  # what is set first, then the defaults
                        [[tag("code", c["name"]), "(sensitive)" if c["sensitive"] else dash(c["value"]),
                          tag("span", c["source"] or "", cls="muted" if c["source"] == "DEFAULT_CONFIG" else "set")]
                         for c in sorted(data["configs"], key=lambda c: (c["source"] == "DEFAULT_CONFIG",
                                                                         c["name"]))])
    heading = join(["Topic ", tag("code", name)])
    body = join([tag("p", join([link(topic_href(name, "/messages"), "Browse messages"), " · ",
                                link(topic_href(name, "/search"), "Search messages")]), cls="sub"),
                 tag("div", stats, cls="stats"), tag("h2", "Partitions"), partitions, tag("h2", "Configs"), configs,
                 extra])
    return layout("topics", f"Topic {name}", body, bootstrap, heading=heading, banner=banner)


def _bytes_cell(value: dict[str, Any] | None, fmt: str) -> Html:
    if value is None:
        return tag("span", "null", cls="muted")
    if fmt == "text" and value["text"] is not None:
        return tag("span", value["text"], cls="data")
    return tag("span", value["hex"] or "(empty)", cls="data hex")


def messages(data: dict[str, Any], partitions: Sequence[int], fmt: str, bootstrap: str, extra: Html = EMPTY,
             banner: Html = EMPTY) -> str:
    name = data["topic"]
    options = join(tag("option", str(p), value=p, selected="selected" if p == data["partition"] else None)
                   for p in partitions)
    formats = join(tag("option", f, value=f, selected="selected" if f == fmt else None) for f in FORMATS)
    form = tag("form", join([
        tag("label", join(["Partition ", tag("select", options, name="partition")])),
        tag("label", join(["From offset ", Html(f'<input name="offset" type="number" min="0" '
                                                 f'value="{data["from_offset"]}">')])),
        tag("label", join(["Records ", Html(f'<input name="limit" type="number" min="1" max="500" '
                                             f'value="{data["limit"]}">')])),
        tag("label", join(["Show as ", tag("select", formats, name="format")])),
        Html('<button type="submit">Show</button>'),
    ]), method="get", action=topic_href(name, "/messages"), cls="controls")
    rows = [[r["offset"], timestamp(r["timestamp"]), _bytes_cell(r["key"], fmt), _bytes_cell(r["value"], fmt),
             join(tag("div", join([tag("b", h["key"]), ": ", _bytes_cell(h["value"], fmt)]), cls="header")
                  for h in r["headers"]) or "-"]
            for r in data["records"]]
    shown = (f'Partition {data["partition"]}: log from offset {data["start_offset"]} to {data["end_offset"]}; '
             f'{len(data["records"])} records from offset {data["from_offset"]}.')
    prev_offset = max(data["start_offset"], data["from_offset"] - data["limit"])
    nxt = data["from_offset"] + len(data["records"])
    query = {"partition": data["partition"], "limit": data["limit"], "format": fmt}
    pager = join([link(topic_href(name, "/messages?" + urlencode({**query, "offset": prev_offset})), "« Older"),
                  " ", link(topic_href(name, "/messages?" + urlencode({**query, "offset": nxt})), "Newer »")])
    heading = join(["Messages in ", link(topic_href(name), name)])
    body = join([form, tag("p", shown, cls="sub", id="range"),
                 table("records", ["Offset", "Timestamp", "Key", "Value", "Headers"], rows, empty="No records"),
                 tag("p", pager, cls="pager"), extra])
    return layout("topics", f"Messages in {name}", body, bootstrap, heading=heading, banner=banner)


def _field(name: str, label: str, value: Any, kind: str = "text", **attrs: Any) -> Html:
    rendered = "".join(f' {k}="{html.escape(str(v))}"' for k, v in attrs.items())
    return tag("label", join([label, " ", Html(f'<input name="{name}" type="{kind}" value="{esc(value)}"{rendered}>')]))


def search(data: dict[str, Any], query: dict[str, str], bootstrap: str) -> str:
    name = data["topic"]
    chosen = query.get("partition", "")
    partitions = join([tag("option", "all", value=""),
                       *(tag("option", str(p), value=p, selected="selected" if str(p) == chosen else None)
                         for p in data["partitions"])])
    fields = join(tag("option", label, value=f, selected="selected" if f == (query.get("field") or "any") else None)
                  for f, label in (("any", "key or value"), ("key", "key"), ("value", "value")))
    form = tag("form", join([
        _field("q", "Text", query.get("q", ""), placeholder="any text (case-insensitive)"),
        tag("label", join(["In ", tag("select", fields, name="field")])),
        tag("label", join(["Partition ", tag("select", partitions, name="partition")])),
        _field("from", "From (UTC)", query.get("from", ""), "datetime-local", step="1"),
        _field("to", "To (UTC)", query.get("to", ""), "datetime-local", step="1"),
        _field("limit", "Matches", data["query"]["limit"], "number", min="1", max="500"),
        Html('<button type="submit">Search</button>'),
    ]), method="get", action=topic_href(name, "/search"), cls="controls", id="search")
    found = len(data["records"])
    if data["complete"]:
        summary = f"{found} matching records in the {data['scanned']} records read."
    elif found >= data["query"]["limit"]:
        summary = f"The first {found} matching records ({data['scanned']} records read; there may be more)."
    else:
        summary = (f"{found} matching records in the {data['scanned']} records read; the search stopped before "
                   f"the end of the log (it reads at most 100000 records, for at most 20 s): narrow the time range.")
    rows = [[r["partition"], link(topic_href(name, f"/messages?partition={r['partition']}&offset={r['offset']}"),
                                  r["offset"]),
             timestamp(r["timestamp"]), _bytes_cell(r["key"], "text"), _bytes_cell(r["value"], "text"),
             join(tag("div", join([tag("b", h["key"]), ": ", _bytes_cell(h["value"], "text")]), cls="header")
                  for h in r["headers"]) or "-"]
            for r in data["records"]]
    heading = join(["Search in ", link(topic_href(name), name)])
    body = join([form, tag("p", summary, cls="sub", id="range"),
                 table("matches", ["Partition", "Offset", "Timestamp", "Key", "Value", "Headers"], rows,
                       empty="No matching records")])
    return layout("topics", f"Search in {name}", body, bootstrap, heading=heading)


ACL_HEADERS = ["Principal", "Host", "Operation", "Permission", "Resource type", "Resource name", "Pattern type"]
ACL_FIELDS = ("principal", "host", "operation", "permission", "resource_type", "resource_name", "pattern_type")


def acls(data: dict[str, Any], bootstrap: str, deletes: Sequence[Html] | None = None, extra: Html = EMPTY,
         banner: Html = EMPTY) -> str:
    if not data["authorizer"]:
        body = tag("p", "The cluster has no authorizer (authorizer.class.name), so it keeps no ACLs.",
                   cls="sub", id="no-authorizer")
        return layout("acls", "ACLs", body, bootstrap, banner=banner)
    rows = [[*(a[f] for f in ACL_FIELDS), *([deletes[i]] if deletes is not None else [])]
            for i, a in enumerate(data["acls"])]
    body = join([table("acls", ACL_HEADERS + ([""] if deletes is not None else []), rows, empty="No ACLs"), extra])
    return layout("acls", "ACLs", body, bootstrap, banner=banner)


def groups(data: dict[str, Any], bootstrap: str) -> str:
    rows = [[link(group_href(g["group_id"]), g["group_id"]), tag("span", g["state"], cls=f"state {g['state']}"),
             g["members"], dash(g["protocol_type"]), dash(g["assignor"])] for g in data["groups"]]
    body = table("groups", ["Group", "State", "Members", "Protocol type", "Assignor"], rows, empty="No groups")
    return layout("groups", "Consumer groups", body, bootstrap)


def group(data: dict[str, Any], bootstrap: str, extra: Html = EMPTY, banner: Html = EMPTY) -> str:
    stats = join([stat("state", "State", data["state"]), stat("members", "Members", len(data["members"])),
                  stat("lag", "Total lag", data["total_lag"], warn=data["total_lag"] > 0),
                  stat("assignor", "Assignor", dash(data["assignor"]))])
    members = table("members", ["Member ID", "Client ID", "Host", "Assigned partitions"],
                    [[tag("code", m["member_id"]), m["client_id"], m["host"],
                      "; ".join(f'{a["topic"]}: {nodes(a["partitions"])}' for a in m["assignment"]) or "-"]
                     for m in data["members"]], empty="No active members")
    offsets = table("offsets", ["Topic", "Partition", "Committed offset", "Log end offset", "Lag", "Client ID"],
                    [[link(topic_href(o["topic"]), o["topic"]), o["partition"], dash(o["committed"]),
                      dash(o["end_offset"]), tag("span", o["lag"], cls="bad") if o["lag"] else dash(o["lag"]),
                      dash(o["client_id"])]
                     for o in data["offsets"]], empty="No committed offsets")
    heading = join(["Consumer group ", tag("code", data["group_id"])])
    body = join([tag("div", stats, cls="stats"), tag("h2", "Members"), members, tag("h2", "Offsets and lag"),
                 offsets, extra])
    return layout("groups", f"Consumer group {data['group_id']}", body, bootstrap, heading=heading, banner=banner)


CHARTS = (("messages", "Messages in / s"), ("bytes", "Bytes / s (in and out)"),
          ("latency", "Mean request latency (ms)"))


def charts(metrics_urls: Sequence[str], interval_ms: int, bootstrap: str) -> str:
    if not metrics_urls:
        body = tag("p", "No metrics to chart: start the console with --metrics-url http://HOST:PORT/metrics "
                        "(each broker's metrics.http.listener).", cls="sub")
        return layout("charts", "Live charts", body, bootstrap)
    sources = tag("p", join(["Polling every ", f"{interval_ms / 1000:g} s: ",
                             join(tag("code", u) for u in metrics_urls)]), cls="sub", id="sources")
    panels = join(tag("section", join([tag("h2", label), tag("div", "", cls="legend", id=f"{key}-legend"),
                                       Html(f'<svg id="chart-{key}" class="chart" viewBox="0 0 640 200" '
                                            f'data-points="0"></svg>')]),
                      cls="panel") for key, label in CHARTS)
    body = join([sources, tag("div", panels, cls="charts", data_interval=interval_ms)])
    return layout("charts", "Live charts", body, bootstrap, scripts=["/static/charts.js"])


def error(status: int, message: str, bootstrap: str) -> str:
    titles = {401: "Log in", 403: "Forbidden", 404: "Not found", 502: "The cluster did not answer"}
    return layout("", titles.get(status, "Error"), tag("p", message, cls="error"), bootstrap)
