/**
 * Browser tests of the emulator's console: a real headless Chromium (Debian's `chromium`, or
 * CHROMIUM_PATH) driven by puppeteer-core, which never downloads a browser. One browser per suite
 * (`useBrowser()` in a describe), a fresh page per `openConsole`.
 *
 * Screenshots (1280x800) go to docs/emulator/console-<page>.png only with CONSOLE_SCREENSHOTS=1, so a
 * normal run writes nothing into the checkout and a picture never makes a test flaky.
 */
import { existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";

// puppeteer-core is an ES module only; this package is CommonJS: types by import, the code by import().
import type { Browser, Page } from "puppeteer-core" with { "resolution-mode": "import" };

export const VIEWPORT = { width: 1280, height: 800 } as const;
const ROOT = resolve(__dirname, "..", "..");

/** Where Chromium is: CHROMIUM_PATH, else Debian's package. */
export function chromiumPath(): string {
  const path = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (!existsSync(path))
    throw new Error(`chromium: not found at ${path} (apt-get install -y chromium, or set CHROMIUM_PATH)`);
  return path;
}

export async function launchBrowser(): Promise<Browser> {
  const { default: puppeteer } = await import("puppeteer-core");
  return puppeteer.launch({
    executablePath: chromiumPath(),
    headless: true,
    // Root in a container has no user namespace sandbox; the pages are the console's own.
    args: ["--no-sandbox", "--headless=new", "--disable-gpu", "--no-first-run", "--no-default-browser-check"],
    defaultViewport: VIEWPORT,
  });
}

export interface BrowserFixture {
  browser: Browser;
  /** Every page opened by openConsole in this test (closed after it). */
  pages: Page[];
}

/** Call inside a mocha `describe`: one browser for the suite, pages closed after each test. */
export function useBrowser(): BrowserFixture {
  const fx = { pages: [] } as unknown as BrowserFixture;
  before(async function () {
    this.timeout(60_000);
    fx.browser = await launchBrowser();
  });
  afterEach(async () => {
    await Promise.all(fx.pages.splice(0).map((p) => p.close().catch(() => undefined)));
  });
  after(async () => {
    await fx.browser?.close();
  });
  return fx;
}

/**
 * Opens the console at `#/<pageId>` and waits until the page rendered (its `view` holds a heading)
 * and the change stream is live.
 */
export async function openConsole(fx: BrowserFixture, origin: string, pageId: string): Promise<Page> {
  const page = await fx.browser.newPage();
  fx.pages.push(page);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e instanceof Error ? e.message : String(e)));
  await page.goto(`${origin}/#/${pageId}`, { waitUntil: "domcontentloaded" });
  await page.waitForSelector('[data-testid="live-status"][data-state="live"]');
  await page.waitForSelector('[data-testid="view"] h1');
  if (errors.length) throw new Error(`console page errors: ${errors.join("; ")}`);
  return page;
}

/** The visible text of the whole page. */
export async function pageText(page: Page): Promise<string> {
  return String(await page.evaluate("document.body.innerText"));
}

/**
 * Evaluates a JavaScript expression in the page (a string: this package is typed without the DOM)
 * and returns its JSON value.
 */
export async function inPage<T>(page: Page, expression: string): Promise<T> {
  return JSON.parse(String(await page.evaluate(`JSON.stringify(${expression})`))) as T;
}

/** Writes docs/emulator/console-<name>.png when CONSOLE_SCREENSHOTS=1. */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.CONSOLE_SCREENSHOTS !== "1") return;
  const dir = join(ROOT, "docs", "emulator");
  mkdirSync(dir, { recursive: true });
  await page.setViewport(VIEWPORT);
  await page.screenshot({ path: join(dir, `console-${name}.png`) as `${string}.png` });
}

/**
 * Clicks the element now, in the page (a real click event on the button): a live page may redraw
 * between the pointer's moves, which would make a mouse click land on a replaced node.
 */
export async function press(page: Page, selector: string): Promise<void> {
  await page.waitForSelector(selector);
  await page.evaluate(`document.querySelector(${JSON.stringify(selector)}).click()`);
}

/** Waits until the expression (run in the page) is true, re-checked on every DOM change; no fixed sleep. */
export async function waitUntil(page: Page, expression: string, timeout = 10_000): Promise<void> {
  await page.waitForFunction(expression, { timeout, polling: "mutation" });
}
