// Opens the josefk console's pages in Debian's chromium and prints what each shows as JSON:
// node console.mjs '{"base": "http://127.0.0.1:PORT", "pages": {"overview": "/", ...},
//                    "charts": "/charts" or null, "chartPoints": 3, "screenshots": "DIR" or null,
//                    "timeoutMs": 30000}'
// Every table is read by its id (headers and cell texts), every stat card by its data-stat; the
// charts page is watched until the messages chart has chartPoints points and traffic in them.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { readPage } from "./read-page.mjs";

const spec = JSON.parse(process.argv[2]);
const timeout = spec.timeoutMs ?? 30000;

function readCharts() {
  return Object.fromEntries([...document.querySelectorAll("svg.chart")].map((svg) => {
    const key = svg.id.replace("chart-", "");
    return [key, { points: Number(svg.dataset.points), max: Number(svg.dataset.max),
      seriesMax: JSON.parse(svg.dataset.seriesMax),
      polylines: [...svg.querySelectorAll("polyline")].map((p) => p.getAttribute("points").split(" ").filter(Boolean).length),
      legend: document.getElementById(key + "-legend").textContent }];
  }));
}

const out = { pages: {}, errors: [] };
const profile = mkdtempSync(join(tmpdir(), "josefk-chromium-"));
let context = null;
try {
  // A fresh profile: Playwright takes --user-data-dir as launchPersistentContext's first argument.
  context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    viewport: { width: 1280, height: 800 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.on("pageerror", (e) => out.errors.push(String(e)));
  page.on("dialog", (d) => { out.errors.push("dialog: " + d.message()); d.dismiss(); });
  for (const [name, path] of Object.entries(spec.pages)) {
    const response = await page.goto(spec.base + path, { timeout });
    out.pages[name] = { status: response.status(), ...(await page.evaluate(readPage)) };
    if (spec.screenshots) await page.screenshot({ path: join(spec.screenshots, `${name}.png`), fullPage: true });
  }
  if (spec.charts) {
    await page.goto(spec.base + spec.charts, { timeout });
    await page.waitForFunction((points) => {
      const svg = document.getElementById("chart-messages");
      return svg && Number(svg.dataset.max) > 0 && Number(svg.dataset.points) >= points;
    }, spec.chartPoints ?? 3, { timeout, polling: 200 });
    out.charts = await page.evaluate(readCharts);
    if (spec.screenshots) await page.screenshot({ path: join(spec.screenshots, "charts.png"), fullPage: true });
  }
} finally {
  await context?.close();
  rmSync(profile, { recursive: true, force: true });
}
console.log(JSON.stringify(out));
