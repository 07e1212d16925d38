/**
 * One emulator and one page of a headless Chromium (harness.ts launches it) for a suite of the console's
 * pages, with keyboard-only helpers (live redraws move things under a mouse), and screenshots at
 * 1280x800 into docs/emulator/ when CONSOLE_SCREENSHOTS=1.
 */
import { strict as assert } from "node:assert";
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
// puppeteer-core is an ES module: its types resolved as one, the module loaded by import().
import type { Browser, Page } from "puppeteer-core" with { "resolution-mode": "import" };
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../emulator/server";
import { launchBrowser } from "./harness";

const DOCS = resolve(__dirname, "..", "..", "docs", "emulator");

export interface ConsoleFixture {
  emulator: RunningEmulator;
  browser: Browser;
  /** A page at 1280x800; `open(id)` navigates it to the console page `#/<id>`. */
  page: Page;
  open(id: string): Promise<void>;
  /** docs/emulator/console-<name>.png, only when CONSOLE_SCREENSHOTS=1 (never a reason to fail). */
  screenshot(name: string): Promise<void>;
  /** The JSON a control route answers (its envelope's result), for seeding and assertions. */
  control<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
}

/** Call inside a mocha `describe`: one emulator and one browser for the suite. */
export function useConsole(options: EmulatorOptions = {}): ConsoleFixture {
  const fx = {} as ConsoleFixture;
  const pageErrors: string[] = [];
  before(async function () {
    this.timeout(60_000);
    fx.emulator = await startEmulator({ env: {}, ...options });
    fx.browser = await launchBrowser();
    fx.page = await fx.browser.newPage();
    await fx.page.setViewport({ width: 1280, height: 800 });
    // A page error is a test failure, never something to read past: checked after each test.
    fx.page.on("pageerror", (e) => pageErrors.push(e instanceof Error ? e.message : String(e)));
  });
  afterEach(() => {
    const errors = pageErrors.splice(0);
    assert.deepEqual(errors, [], "no error in the page");
  });
  after(async () => {
    await fx.browser?.close();
    await fx.emulator?.stop();
  });
  fx.open = async (id) => {
    // A fresh document each time: going to the page already shown would change no hash and redraw nothing.
    await fx.page.goto("about:blank");
    await fx.page.goto(`${fx.emulator.origin}/#/${id}`);
    await fx.page.waitForSelector(`#view[data-page="${id}"]`);
  };
  fx.screenshot = async (name) => {
    if (process.env.CONSOLE_SCREENSHOTS !== "1") return;
    mkdirSync(DOCS, { recursive: true });
    await fx.page.screenshot({ path: join(DOCS, `console-${name}.png`) });
  };
  fx.control = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${fx.emulator.origin}/__emulator${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    const json: unknown = text ? JSON.parse(text) : null;
    return (json !== null && typeof json === "object" && "result" in json ? json.result : json) as T;
  };
  return fx;
}

/** Waits until `fn` (run in the page) is true: a condition, never a fixed sleep. */
export async function waitFor(page: Page, fn: string, timeout = 15_000): Promise<void> {
  await page.waitForFunction(fn, { timeout, polling: 100 });
}

/** The rendered text of the first element `selector` matches (the project's types have no DOM lib). */
export async function textOf(page: Page, selector: string): Promise<string> {
  return page.$eval(selector, (el) => (el as unknown as { innerText: string }).innerText);
}

/** Whether each element `selector` matches is a disabled control, in document order. */
export async function disabledOf(page: Page, selector: string): Promise<boolean[]> {
  return page.$$eval(selector, (els) => els.map((el) => (el as unknown as { disabled: boolean }).disabled));
}

/** Replaces the value of an input by keyboard: focused, emptied, typed (no mouse: live redraws move things). */
export async function fill(page: Page, selector: string, value: string): Promise<void> {
  await page.focus(selector);
  await page.$eval(selector, (el) => {
    (el as unknown as { value: string }).value = "";
  });
  await page.type(selector, value);
}

/** Activates a button, link or summary by keyboard (focus, Enter), as a keyboard user does. */
export async function activate(page: Page, selector: string): Promise<void> {
  await page.focus(selector);
  await page.keyboard.press("Enter");
}
