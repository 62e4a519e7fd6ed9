// Acts on a cluster through the josefk console's forms in Debian's chromium, logged in with HTTP
// Basic credentials, and prints what each step's resulting page shows as JSON:
// node console-actions.mjs '{"base": "http://127.0.0.1:PORT", "user": "NAME", "password": "PW",
//   "steps": [{"name": "create", "goto": "/topics", "form": "create-topic", "fields": {"name": "t"},
//              "screenshot": "FILE.png" or absent}, ...], "screenshots": "DIR" or null, "timeoutMs": 30000}'
// A step opens `goto` (if given), fills its form's fields (inputs, textareas, selects by name),
// submits it and waits for the page the console answers with (after its redirect, if any).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { readPage } from "./read-page.mjs";

const spec = JSON.parse(process.argv[2]);
const timeout = spec.timeoutMs ?? 30000;
const out = { steps: {}, errors: [] };
const profile = mkdtempSync(join(tmpdir(), "josefk-chromium-"));
let context = null;
try {
  context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    viewport: { width: 1280, height: 800 },
    httpCredentials: spec.user ? { username: spec.user, password: spec.password } : undefined,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.on("pageerror", (e) => out.errors.push(String(e)));
  page.on("dialog", (d) => { out.errors.push("dialog: " + d.message()); d.dismiss(); });
  for (const step of spec.steps) {
    let response = step.goto ? await page.goto(spec.base + step.goto, { timeout }) : null;
    if (step.form) {
      const form = page.locator(`form#${step.form}`);
      for (const [name, value] of Object.entries(step.fields ?? {})) {
        const field = form.locator(`[name="${name}"]`);
        if ((await field.evaluate((el) => el.tagName)) === "SELECT") await field.selectOption(String(value));
        else await field.fill(String(value));
      }
      [response] = await Promise.all([page.waitForNavigation({ timeout }),
        form.locator("button[type=submit]").click({ timeout })]);
    }
    out.steps[step.name] = { status: response?.status() ?? null, path: new URL(page.url()).pathname,
      ...(await page.evaluate(readPage)) };
    if (spec.screenshots && step.screenshot) {
      await page.screenshot({ path: join(spec.screenshots, step.screenshot), fullPage: true });
    }
  }
} finally {
  await context?.close();
  rmSync(profile, { recursive: true, force: true });
}
console.log(JSON.stringify(out));
