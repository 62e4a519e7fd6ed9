// Live charts: poll /api/metrics (running totals from the brokers' /metrics), turn two readings into
// rates, and draw each series as an SVG polyline. No library: the page must work offline.
"use strict";
(function () {
  const root = document.querySelector(".charts");
  const interval = Number(root.dataset.interval) || 2000;
  const keep = 90; // points per series
  const colors = ["#2f6fde", "#e0712c", "#1f8a4c", "#9b4dca"];
  const charts = {
    messages: { series: ["messages in"], unit: "/s" },
    bytes: { series: ["bytes in", "bytes out"], unit: " B/s" },
    // Kafka's RequestMetrics name Fetch requests by who sends them: FetchConsumer, FetchFollower.
    latency: { series: ["Produce", "Fetch (consumer)", "Fetch (follower)", "Metadata"], unit: " ms",
               requests: ["Produce", "FetchConsumer", "FetchFollower", "Metadata"] },
  };
  for (const chart of Object.values(charts)) chart.points = chart.series.map(() => []);
  let previous = null;
  const sources = document.getElementById("sources");
  const polling = sources.innerHTML;
  function status(problem) { // a problem replaces the "Polling every..." line until it is gone
    sources.classList.toggle("bad", problem !== null);
    if (problem === null) sources.innerHTML = polling; else sources.textContent = problem;
  }

  function sum(reading, field) {
    return reading.brokers.filter((b) => b.ok).reduce((total, b) => total + b[field], 0);
  }
  function requests(reading, name, field) {
    return reading.brokers.filter((b) => b.ok && b.requests[name])
      .reduce((total, b) => total + b.requests[name][field], 0);
  }
  function rate(now, before, seconds) { return Math.max(0, now - before) / seconds; }
  function meanLatency(now, before, name) {
    const count = requests(now, name, "count") - requests(before, name, "count");
    return count > 0 ? Math.max(0, requests(now, name, "sum_ms") - requests(before, name, "sum_ms")) / count : 0;
  }
  function label(value, unit) {
    const text = value >= 1e6 ? (value / 1e6).toFixed(1) + "M" : value >= 1e3 ? (value / 1e3).toFixed(1) + "k"
      : value >= 10 || value === 0 ? value.toFixed(0) : value.toFixed(2);
    return text + unit;
  }
  function draw(key) {
    const chart = charts[key];
    const svg = document.getElementById("chart-" + key);
    const width = Math.max(200, Math.round(svg.getBoundingClientRect().width)), top = 10, bottom = 190, left = 52;
    svg.setAttribute("viewBox", `0 0 ${width} 200`);
    const max = Math.max(1e-9, ...chart.points.flat().map((p) => p.v));
    const parts = [];
    for (let i = 0; i <= 4; i++) {
      const y = top + (bottom - top) * i / 4;
      parts.push(`<line class="grid" x1="${left}" x2="${width}" y1="${y}" y2="${y}"/>`);
      parts.push(`<text class="axis" x="4" y="${y + 4}">${label(max * (4 - i) / 4, "")}</text>`);
    }
    chart.points.forEach((points, i) => {
      const xy = points.map((p, j) =>
        `${(left + (width - left) * (j + keep - points.length) / (keep - 1)).toFixed(1)},` +
        `${(bottom - (bottom - top) * p.v / max).toFixed(1)}`);
      parts.push(`<polyline stroke="${colors[i]}" points="${xy.join(" ")}"/>`);
    });
    svg.innerHTML = parts.join("");
    svg.dataset.points = String(chart.points[0].length);
    svg.dataset.max = String(Math.max(0, ...chart.points.flat().map((p) => p.v)));
    svg.dataset.seriesMax = JSON.stringify(Object.fromEntries(chart.series.map((name, i) =>
      [name, Math.max(0, ...chart.points[i].map((p) => p.v))])));
    document.getElementById(key + "-legend").innerHTML = chart.series.map((name, i) => {
      const last = chart.points[i][chart.points[i].length - 1];
      return `<span><i style="background:${colors[i]}"></i>${name}: ${last ? label(last.v, chart.unit) : "-"}</span>`;
    }).join("");
  }
  function add(key, values, time) {
    charts[key].points.forEach((points, i) => {
      points.push({ t: time, v: values[i] });
      if (points.length > keep) points.shift();
    });
  }
  async function poll() {
    try {
      const reading = await (await fetch("/api/metrics", { cache: "no-store" })).json();
      if (previous && reading.time > previous.time) {
        const seconds = reading.time - previous.time;
        add("messages", [rate(sum(reading, "messages_in"), sum(previous, "messages_in"), seconds)], reading.time);
        add("bytes", [rate(sum(reading, "bytes_in"), sum(previous, "bytes_in"), seconds),
                      rate(sum(reading, "bytes_out"), sum(previous, "bytes_out"), seconds)], reading.time);
        add("latency", charts.latency.requests.map((name) => meanLatency(reading, previous, name)), reading.time);
      }
      previous = reading;
      const down = reading.brokers.filter((b) => !b.ok).map((b) => b.url + " (" + b.error + ")");
      status(down.length ? "Cannot read " + down.join(", ") : null);
    } catch (e) {
      status("The console did not answer: " + e);
    }
    Object.keys(charts).forEach(draw);
    setTimeout(poll, interval);
  }
  Object.keys(charts).forEach(draw);
  poll();
})();
