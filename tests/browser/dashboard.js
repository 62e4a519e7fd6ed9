// Draws a dashboard model (tests/grafana.py's panels with Prometheus' series) into dashboard.html:
// window.drawDashboard(model) lays out panels by gridPos on Grafana's 24-column grid and returns,
// per panel title, what it drew ({lines} or {value}). No chart library: none can be fetched here.
"use strict";
(function () {
  const COLORS = ["#7eb26d", "#eab839", "#6ed0e0", "#ef843c", "#e24d42", "#1f78c1", "#ba43a9", "#705da0",
    "#508642", "#cca300", "#447ebc", "#c15c17"];
  const CELL = 26, MARGIN = 6; // Grafana: 30 px rows, 8 px margins; a little tighter for the picture

  function scaled(value, base, units) {
    let i = 0;
    while (Math.abs(value) >= base && i < units.length - 1) { value /= base; i++; }
    return `${round(value)} ${units[i]}`.trim();
  }
  function round(value) {
    const a = Math.abs(value);
    return a === 0 ? "0" : a >= 100 ? value.toFixed(0) : a >= 10 ? value.toFixed(1) : a >= 0.01
      ? value.toFixed(2) : value.toExponential(1);
  }
  function format(value, unit) {
    if (!Number.isFinite(value)) return String(value);
    switch (unit) {
      case "bytes": return scaled(value, 1024, ["B", "KiB", "MiB", "GiB", "TiB"]);
      case "Bps": return scaled(value, 1024, ["B/s", "KiB/s", "MiB/s", "GiB/s"]);
      case "ms": return Math.abs(value) >= 1000 ? `${round(value / 1000)} s` : `${round(value)} ms`;
      case "s": return Math.abs(value) >= 3600 ? `${round(value / 3600)} hour` : Math.abs(value) >= 60
        ? `${round(value / 60)} min` : `${round(value)} s`;
      case "percent": return `${round(value)}%`;
      case "reqps": return `${round(value)} req/s`;
      case "cps": return `${round(value)} c/s`;
      case "ops": return `${round(value)} ops/s`;
      case "short": return scaled(value, 1000, ["", "K", "Mil", "Bil"]);
      default: return Number.isInteger(value) ? String(value) : round(value);
    }
  }
  function clock(seconds) { return new Date(seconds * 1000).toISOString().slice(11, 19); }
  function element(tag, attrs, text) {
    const node = document.createElementNS(tag === "svg" || attrs.svg ? "http://www.w3.org/2000/svg"
      : "http://www.w3.org/1999/xhtml", tag);
    for (const [k, v] of Object.entries(attrs)) if (k !== "svg") node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // Runs of finite points: a summary's NaN (null in the model: no observation in its window) breaks the line.
  function runs(points) {
    const out = [[]];
    for (const [t, v] of points) {
      if (Number.isFinite(v)) out[out.length - 1].push([t, v]);
      else if (out[out.length - 1].length) out.push([]);
    }
    return out.filter((run) => run.length);
  }

  function timeseries(box, panel, model) {
    const drawn = panel.series.filter((s) => runs(s.points).length);
    if (!drawn.length) { box.append(element("div", { class: "empty" }, "No data")); return { lines: 0 }; }
    const width = box.clientWidth - 16, height = Math.max(40, box.clientHeight - 24 - 42);
    const svg = element("svg", { viewBox: `0 0 ${width} ${height}`, height: String(height) });
    const values = drawn.flatMap((s) => s.points.map((p) => p[1]).filter(Number.isFinite));
    const low = Math.min(0, ...values), peak = Math.max(...values), high = peak > low ? peak : low + 1;
    const left = 62, bottom = height - 14, top = 4;
    const x = (t) => left + (width - left) * (t - model.start) / (model.end - model.start);
    const y = (v) => bottom - (bottom - top) * (v - low) / (high - low);
    for (let i = 0; i <= 3; i++) {
      const v = low + (high - low) * i / 3;
      svg.append(element("line", { svg: 1, class: "axis", x1: left, x2: width, y1: y(v), y2: y(v) }));
      svg.append(element("text", { svg: 1, x: 0, y: y(v) + 3 }, format(v, panel.unit)));
    }
    const ticks = width < 400 ? 2 : 3; // clock labels: start, end and between, as room allows
    for (let i = 0; i <= ticks; i++) {
      const t = model.start + (model.end - model.start) * i / ticks;
      svg.append(element("text", { svg: 1, x: Math.min(x(t), width - 44), y: height - 2 }, clock(t)));
    }
    const legend = element("div", { class: "legend" });
    drawn.forEach((s, i) => {
      const color = COLORS[i % COLORS.length];
      const group = element("g", { svg: 1, class: "series", "data-name": s.name });
      for (const run of runs(s.points)) {
        const xy = run.map(([t, v]) => `${x(t).toFixed(1)},${y(v).toFixed(1)}`);
        if (xy.length === 1) xy.push(xy[0].replace(/^[\d.]+/, (px) => (Number(px) + 2).toFixed(1)));
        group.append(element("polyline", { svg: 1, stroke: color, points: xy.join(" ") }));
      }
      svg.append(group);
      const item = element("span", { style: `--color: ${color}` }, s.name);
      legend.append(item);
    });
    box.append(svg, legend);
    return { lines: drawn.length };
  }

  function stat(box, panel) {
    const last = panel.series.map((s) => s.points.map((p) => p[1]).filter(Number.isFinite).pop())
      .filter((v) => v !== undefined);
    const text = last.length ? last.map((v) => format(v, panel.unit)).join(" ") : "No data";
    box.append(element("div", { class: "stat" }, text));
    return { value: text };
  }

  window.drawDashboard = function (model) {
    document.getElementById("heading").textContent = model.title;
    document.getElementById("note").textContent = model.note;
    const grid = document.getElementById("grid");
    const column = (grid.clientWidth + MARGIN) / 24;
    const drawn = {};
    let bottom = 0;
    for (const panel of model.panels) {
      const g = panel.gridPos;
      const box = element("div", { class: panel.type === "row" ? "row" : "panel" });
      Object.assign(box.style, { left: `${g.x * column}px`, top: `${g.y * (CELL + MARGIN)}px`,
        width: `${g.w * column - MARGIN}px`, height: `${g.h * (CELL + MARGIN) - MARGIN}px` });
      bottom = Math.max(bottom, (g.y + g.h) * (CELL + MARGIN));
      grid.append(box);
      if (panel.type === "row") { box.textContent = panel.title; continue; }
      box.append(element("div", { class: "title" }, panel.title));
      drawn[panel.title] = panel.type === "stat" ? stat(box, panel) : timeseries(box, panel, model);
    }
    grid.style.height = `${bottom}px`;
    return drawn;
  };
})();
