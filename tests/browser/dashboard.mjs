// Draws a dashboard model in Debian's chromium (dashboard.html) and saves a full-page screenshot:
// node dashboard.mjs '{"model": "FILE.json", "screenshot": "FILE.png", "timeoutMs": 60000}'
// Prints {"drawn": {title: {lines} or {value}}, "errors": [...]} as JSON.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium } from "playwright-core";

const spec = JSON.parse(process.argv[2]);
const model = JSON.parse(readFileSync(spec.model, "utf8"));
const page_url = pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), "dashboard.html")).href;
const out = { errors: [] };
const profile = mkdtempSync(join(tmpdir(), "josefk-chromium-"));
let context = null;
try {
  context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    viewport: { width: 1600, height: 900 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.on("pageerror", (e) => out.errors.push(String(e)));
  await page.goto(page_url, { timeout: spec.timeoutMs ?? 60000 });
  out.drawn = await page.evaluate((m) => window.drawDashboard(m), model);
  await page.screenshot({ path: spec.screenshot, fullPage: true, timeout: spec.timeoutMs ?? 60000 });
} finally {
  await context?.close();
  rmSync(profile, { recursive: true, force: true });
}
console.log(JSON.stringify(out));
