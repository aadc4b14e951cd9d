/**
 * Entry of the widget library (public/widgets/vonk-widgets.js). The Rust app does
 * `const w = await import('/widgets/vonk-widgets.js')` and then `w.mount(el, 'PaymentMethodBlocks',
 * JSON.stringify(props))`, `w.update(el, json)` and `w.unmount(el)`.
 *
 * Widgets are presentational: props in, events out. Events are bubbling CustomEvents dispatched on
 * the mount element itself.
 */
import { createElement } from 'react';
import { flushSync } from 'react-dom';
import { createRoot, type Root } from 'react-dom/client';
import { widgets } from './registry';
import type { Dispatch } from './types';

export type { Dispatch, WidgetProps } from './types';

interface Mounted {
  root: Root;
  name: string;
  dispatch: Dispatch;
}

const mounted = new WeakMap<HTMLElement, Mounted>();

/**
 * The stylesheet the build writes next to this module. Kept in a variable so Vite does not try to
 * resolve it as an asset at build time (it only exists in the output folder).
 */
const CSS_HREF = './vonk-widgets.css';

/** Adds the widgets' stylesheet to the page once. */
function ensureStylesheet(): void {
  if (document.head.querySelector('link[data-vonk-widgets]')) return;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  // Resolved against this module's own URL, so it works wherever the bundle is served from.
  link.href = new URL(CSS_HREF, import.meta.url).href;
  link.setAttribute('data-vonk-widgets', '');
  document.head.appendChild(link);
}

function parseProps(propsJson: string): Record<string, unknown> {
  const props: unknown = JSON.parse(propsJson);
  if (props === null || typeof props !== 'object' || Array.isArray(props)) {
    throw new Error('vonk-widgets: props must be a JSON object');
  }
  return props as Record<string, unknown>;
}

function render(entry: Mounted, props: Record<string, unknown>): void {
  const Widget = widgets[entry.name];
  // Synchronous, so the DOM is up to date when mount/update return.
  flushSync(() => {
    entry.root.render(createElement(Widget, { ...props, dispatch: entry.dispatch }));
  });
}

/** Creates a React root in `el` and renders widget `name` with the given JSON props. */
export function mount(el: HTMLElement, name: string, propsJson: string): void {
  if (!Object.prototype.hasOwnProperty.call(widgets, name)) {
    throw new Error(`vonk-widgets: unknown widget "${name}"`);
  }
  const props = parseProps(propsJson);
  ensureStylesheet();
  const previous = mounted.get(el);
  if (previous) {
    if (previous.name === name) {
      render(previous, props);
      return;
    }
    unmount(el);
  }
  const dispatch: Dispatch = (eventName, detail) => {
    el.dispatchEvent(new CustomEvent(eventName, { detail, bubbles: true, composed: true }));
  };
  const entry: Mounted = { root: createRoot(el), name, dispatch };
  mounted.set(el, entry);
  render(entry, props);
  // The page may hide what the server rendered in its place (the landers do).
  el.setAttribute('data-mounted', '');
}

/** Re-renders the widget mounted in `el` with new JSON props. */
export function update(el: HTMLElement, propsJson: string): void {
  const entry = mounted.get(el);
  if (!entry) throw new Error('vonk-widgets: update() on an element with no mounted widget');
  render(entry, parseProps(propsJson));
}

/** Unmounts the widget in `el` (if any) and empties the element. */
export function unmount(el: HTMLElement): void {
  const entry = mounted.get(el);
  if (!entry) return;
  mounted.delete(el);
  entry.root.unmount();
  el.removeAttribute('data-mounted');
}
