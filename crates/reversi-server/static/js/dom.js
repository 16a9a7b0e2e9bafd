// Building the page: elements, SVG, links inside the app, and navigation.

export const $ = sel => document.querySelector(sel);
export const $$ = sel => Array.from(document.querySelectorAll(sel));

const EVENTS = new Set(['onclick', 'onchange', 'onsubmit', 'oninput', 'onkeydown']);

/** An element with attributes (`on…` handlers set as properties) and children. */
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (EVENTS.has(k)) e[k] = v; else e.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) e.append(c);
  return e;
}

/** Replaces the children of `node` (skipping null, undefined and false, as `el` does). */
export function fill(node, ...children) {
  node.replaceChildren(...children.flat().filter(c => c !== null && c !== undefined && c !== false));
  return node;
}

const SVG_NS = 'http://www.w3.org/2000/svg';
/** An SVG element with attributes. */
export function svg(tag, attrs = {}, ...children) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) e.setAttribute(k, v);
  for (const c of children) e.append(c);
  return e;
}

/** Goes to `path` inside the app (the router listens for this event). */
export function go(path) {
  history.pushState(null, '', path);
  window.dispatchEvent(new Event('app:navigate'));
}

/** A link inside the app: a plain click navigates without reloading the page. */
export function link(path, children, attrs = {}) {
  const a = el('a', Object.assign({ href: path }, attrs), children);
  a.onclick = ev => {
    if (ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.altKey || ev.button) return;
    ev.preventDefault();
    go(path);
  };
  return a;
}

/** A small inline icon from the sprite in index.html. */
export function icon(name) {
  const s = svg('svg', { class: 'icon', 'aria-hidden': 'true', focusable: 'false' });
  s.append(svg('use', { href: `#i-${name}` }));
  return s;
}

/** A button with an icon and a label. */
export function button(label, attrs = {}, iconName = null) {
  return el('button', Object.assign({ type: 'button' }, attrs), iconName ? icon(iconName) : null, el('span', {}, label));
}

/** Whether the device has a fine pointer and a keyboard to speak of (not a phone). */
export const hasKeyboard = () => window.matchMedia('(hover: hover) and (pointer: fine)').matches;

/** Whether the main pointer is a finger (a phone or a tablet): no box to type moves in. */
export const touchScreen = () => window.matchMedia('(pointer: coarse)').matches;

/** Announces `text` to screen readers (one polite live region, not the whole page). */
export function announce(text) {
  const r = $('#announce');
  if (r) { r.textContent = ''; setTimeout(() => { r.textContent = text; }, 30); }
}

/** Scrolls `box` (and only it: never the page) so that `item`, inside it, is in view. */
export function scrollWithin(box, item) {
  const b = box.getBoundingClientRect(), r = item.getBoundingClientRect();
  // A sticky head (the record's column names) covers the top of the box.
  const head = box.querySelector('thead');
  const top = b.top + (head && getComputedStyle(head).display !== 'none' ? head.getBoundingClientRect().height : 0);
  if (r.top < top) box.scrollTop -= top - r.top;
  else if (r.bottom > b.bottom) box.scrollTop += r.bottom - b.bottom;
  if (r.left < b.left) box.scrollLeft -= b.left - r.left;
  else if (r.right > b.right) box.scrollLeft += r.right - b.right;
}
