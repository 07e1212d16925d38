// @ts-check
/**
 * What the registrar, search, meetings and markdown pages share: a section that re-reads its data on
 * every `change` and redraws only when the data differ (so a keyboard user's focus is not thrown
 * away by a redraw that changes nothing), and plain tables with `<th>` headers. Not a page: it is
 * not in PAGES. Everything shown goes through `h`, which sets text and attributes only.
 */

/**
 * @typedef {(tag: string, attrs?: Record<string, string> | null, ...children: (Node | string)[]) => HTMLElement} H
 * @typedef {{ get(path: string): Promise<any>, post(path: string, body?: unknown): Promise<any>,
 *   put(path: string, body?: unknown): Promise<any>, del(path: string): Promise<any> }} Control
 * @typedef {{ control: Control, h: H, onChange(fn: () => void): void }} PageContext
 */

/**
 * Appends a live section to `view`: `load` reads the data, `draw` turns it into nodes. Returns a
 * function that reloads at once (after an action of the page itself).
 * @template T
 * @param {HTMLElement} view
 * @param {PageContext} ctx
 * @param {string} testid
 * @param {() => Promise<T>} load
 * @param {(data: T) => (Node | string)[]} draw
 * @returns {() => Promise<void>}
 */
export function liveSection(view, ctx, testid, load, draw) {
  const box = ctx.h("div", { "data-testid": testid, "aria-live": "polite" });
  view.append(box);
  let shown = "";
  let pending = Promise.resolve();
  const refresh = async () => {
    let data;
    try {
      data = unwrap(await load());
    } catch (e) {
      box.replaceChildren(ctx.h("p", { class: "error", role: "alert" }, `Could not read: ${message(e)}`));
      shown = "";
      return;
    }
    const json = JSON.stringify(data);
    if (json === shown) return;
    shown = json;
    box.replaceChildren(...draw(data));
  };
  // One read at a time, in order: a burst of changes never draws an older answer over a newer one.
  const queued = () => (pending = pending.then(refresh, refresh));
  ctx.onChange(() => void queued());
  return queued;
}

/**
 * A read-only page: its title, then one live section drawn from one control route.
 * @template T
 * @param {HTMLElement} view
 * @param {PageContext} ctx
 * @param {{ title: string, testid: string, path: string, draw: (data: T) => (Node | string)[] }} page
 */
export async function overviewPage(view, ctx, page) {
  view.append(ctx.h("h1", null, page.title));
  const load = () => /** @type {Promise<T>} */ (ctx.control.get(page.path));
  await liveSection(view, ctx, page.testid, load, page.draw)();
}

/**
 * @param {H} h
 * @param {string} testid
 * @param {string} caption
 * @param {string[]} headers
 * @param {HTMLElement[]} rows
 * @param {string} empty what to say when there are no rows
 */
export function table(h, testid, caption, headers, rows, empty) {
  if (rows.length === 0) return h("p", { class: "empty", "data-testid": `${testid}-empty` }, empty);
  return h(
    "div",
    { class: "table-wrap" },
    h(
      "table",
      { "data-testid": testid },
      h("caption", null, caption),
      h("thead", null, h("tr", null, ...headers.map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", null, ...rows),
    ),
  );
}

/** @param {H} h @param {(Node | string)[]} cells @param {Record<string, string>} attrs */
export function row(h, attrs, ...cells) {
  return h("tr", attrs, ...cells.map((c) => h("td", null, c)));
}

/** An ISO time as the user's locale shows it, the ISO text kept as the title; "" stays "". */
/** @param {H} h @param {string | null | undefined} iso */
export function time(h, iso) {
  if (!iso) return h("span", null, "—");
  return h("time", { datetime: iso, title: iso }, new Date(iso).toLocaleString());
}

/**
 * The control API answers `{ success, errors, messages, result }`: the result, whether the shell's
 * `control` helper already took it out of its envelope or not.
 * @template T
 * @param {T} answer
 * @returns {T}
 */
export function unwrap(answer) {
  if (answer !== null && typeof answer === "object" && "success" in answer && "result" in answer)
    return /** @type {T} */ (answer.result);
  return answer;
}

/** @param {unknown} e */
export function message(e) {
  return e instanceof Error ? e.message : String(e);
}

/** `value` as text: null and undefined as a dash. @param {unknown} value */
export function text(value) {
  return value === null || value === undefined ? "—" : String(value);
}
