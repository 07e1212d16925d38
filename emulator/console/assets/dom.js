// @ts-check
/**
 * The console's one way to make elements. Everything the console shows is untrusted (names,
 * subjects, commands, logs), so text only ever goes in as text nodes and attributes through
 * setAttribute: never innerHTML, never an `on…` attribute (listeners are added with `on: {…}`), and
 * `href`/`src` only to this console (`#…` or a same-origin path).
 */

/** @typedef {string | number | Node | null | undefined | false} Child */
/**
 * @typedef {{ [name: string]: string | number | boolean | null | undefined | Record<string, EventListener> }} Attrs
 */

// Not `//host` nor `/\host`: a browser reads a backslash as a slash there, and both leave the origin.
const SAFE_URL = /^(#|\/(?![/\\]))/;

/**
 * @param {string} tag
 * @param {Attrs | null} [attrs]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "on") {
      for (const [event, fn] of Object.entries(/** @type {Record<string, EventListener>} */ (value)))
        el.addEventListener(event, fn);
      continue;
    }
    if (/^on/i.test(name)) throw new Error(`h: ${name} is not allowed; use on: { event: fn }`);
    const text = value === true ? "" : String(value);
    if ((name === "href" || name === "src" || name === "action") && !SAFE_URL.test(text))
      throw new Error(`h: ${name} must be #… or a same-origin path`);
    el.setAttribute(name, text);
  }
  append(el, children);
  return el;
}

/**
 * @param {Node} el
 * @param {(Child | Child[])[]} children
 */
function append(el, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.appendChild(typeof child === "object" ? child : document.createTextNode(String(child)));
  }
}

/**
 * Replaces an element's children.
 * @param {Element} el
 * @param {...(Child | Child[])} children
 */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
}
