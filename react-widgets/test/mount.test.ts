// The library entry as the Rust app uses it: mount / update / unmount with JSON props, events as
// CustomEvents on the mount element.
import { act } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { PaymentMethodBlocksProps } from '../src/generated/PaymentMethodBlocksProps';
import type { PaymentMethodSelected } from '../src/generated/PaymentMethodSelected';
import { mount, unmount, update } from '../src/index';
import { netherlands } from '../../stories/fixtures/payment-methods';

const moduleUrl = new URL(['..', 'src', 'index.ts'].join('/'), import.meta.url);

const json = (props: PaymentMethodBlocksProps) => JSON.stringify(props);

function host(): HTMLElement {
  const el = document.createElement('div');
  document.body.appendChild(el);
  return el;
}

const mounted: HTMLElement[] = [];

function mountBlocks(props: PaymentMethodBlocksProps): HTMLElement {
  const el = host();
  act(() => mount(el, 'PaymentMethodBlocks', json(props)));
  mounted.push(el);
  return el;
}

const radio = (el: HTMLElement, method: string) => {
  const found = el.querySelector<HTMLElement>(`[role="radio"][data-method="${method}"]`);
  if (!found) throw new Error(`no block for ${method}`);
  return found;
};

afterEach(() => {
  for (const el of mounted.splice(0)) act(() => unmount(el));
  document.head.querySelectorAll('link[data-vonk-widgets]').forEach((l) => l.remove());
});

describe('mount', () => {
  test('renders the named widget from JSON props, synchronously', () => {
    const el = mountBlocks(netherlands);
    const group = el.querySelector('[role="radiogroup"]');
    expect(group?.getAttribute('aria-label')).toBe('Kies je betaalmethode');
    const labels = [...el.querySelectorAll('[role="radio"] .vw-pmb__label')].map((l) => l.textContent);
    expect(labels).toEqual(['iDEAL', 'Automatische incasso', 'Bankoverschrijving', 'Visa', 'Mastercard', 'PayPal', 'Apple Pay', 'paysafecard']);
  });

  test('adds the stylesheet link once, next to the module', () => {
    mountBlocks(netherlands);
    mountBlocks(netherlands);
    const links = document.head.querySelectorAll<HTMLLinkElement>('link[data-vonk-widgets]');
    expect(links).toHaveLength(1);
    expect(links[0].rel).toBe('stylesheet');
    // Resolved against the module's own URL (src/index.ts here; /widgets/vonk-widgets.js when built).
    expect(links[0].href).toBe(new URL('vonk-widgets.css', moduleUrl).href);
  });

  test('does not add a second link when the page already has one', () => {
    const existing = document.createElement('link');
    existing.rel = 'stylesheet';
    existing.href = '/widgets/vonk-widgets.css';
    existing.setAttribute('data-vonk-widgets', '');
    document.head.appendChild(existing);
    mountBlocks(netherlands);
    expect(document.head.querySelectorAll('link[data-vonk-widgets]')).toHaveLength(1);
  });

  test('throws on an unknown widget, naming it, and renders nothing', () => {
    const el = host();
    expect(() => mount(el, 'NoSuchWidget', '{}')).toThrowError(/NoSuchWidget/);
    expect(el.childElementCount).toBe(0);
  });

  test('throws on props that are not a JSON object', () => {
    expect(() => mount(host(), 'PaymentMethodBlocks', '[]')).toThrowError(/JSON object/);
    expect(() => mount(host(), 'PaymentMethodBlocks', 'not json')).toThrowError(SyntaxError);
  });
});

describe('events', () => {
  test('a click dispatches vonk:payment-method-select on the mount element, bubbling', async () => {
    const user = userEvent.setup();
    const el = mountBlocks(netherlands);
    const onElement = vi.fn<(e: Event) => void>();
    const onDocument = vi.fn<(e: Event) => void>();
    el.addEventListener('vonk:payment-method-select', onElement);
    document.addEventListener('vonk:payment-method-select', onDocument);

    await user.click(radio(el, 'paypal'));

    expect(onElement).toHaveBeenCalledTimes(1);
    const event = onElement.mock.calls[0][0] as CustomEvent<PaymentMethodSelected>;
    expect(event).toBeInstanceOf(CustomEvent);
    expect(event.target).toBe(el);
    expect(event.bubbles).toBe(true);
    expect(event.detail).toEqual({ method: 'paypal' });
    expect(onDocument).toHaveBeenCalledTimes(1);
    expect(radio(el, 'paypal').getAttribute('aria-checked')).toBe('true');
    document.removeEventListener('vonk:payment-method-select', onDocument);
  });

  test('events of one widget do not reach a sibling mount element', async () => {
    const user = userEvent.setup();
    const a = mountBlocks(netherlands);
    const b = mountBlocks(netherlands);
    const onA = vi.fn();
    const onB = vi.fn();
    a.addEventListener('vonk:payment-method-select', onA);
    b.addEventListener('vonk:payment-method-select', onB);

    await user.click(radio(b, 'visa'));

    expect(onA).not.toHaveBeenCalled();
    expect(onB).toHaveBeenCalledTimes(1);
  });
});

describe('update', () => {
  test('changes the selection when props.selected changes', () => {
    const el = mountBlocks(netherlands);
    expect(el.querySelector('[aria-checked="true"]')).toBeNull();

    act(() => update(el, json({ ...netherlands, selected: 'ideal' })));
    expect(radio(el, 'ideal').getAttribute('aria-checked')).toBe('true');
    expect(radio(el, 'ideal').tabIndex).toBe(0);

    act(() => update(el, json({ ...netherlands, selected: 'apple_pay' })));
    expect(radio(el, 'ideal').getAttribute('aria-checked')).toBe('false');
    expect(radio(el, 'apple_pay').getAttribute('aria-checked')).toBe('true');
  });

  test('re-renders with new methods and labels', () => {
    const el = mountBlocks(netherlands);
    act(() =>
      update(
        el,
        json({
          methods: [{ method: 'blik', group: 'wallet', label: 'BLIK' }],
          selected: null,
          labels: { ...netherlands.labels, title: 'Betalen', group_wallet: 'Apps' },
        }),
      ),
    );
    expect(el.querySelectorAll('[role="radio"]')).toHaveLength(1);
    expect(el.querySelector('[role="radiogroup"]')?.getAttribute('aria-label')).toBe('Betalen');
    expect(el.querySelector('h3')?.textContent).toBe('Apps');
  });

  test('keeps what the visitor picked when other props change', async () => {
    const user = userEvent.setup();
    const el = mountBlocks(netherlands);
    await user.click(radio(el, 'visa'));
    act(() => update(el, json({ ...netherlands, labels: { ...netherlands.labels, title: 'Anders' } })));
    expect(radio(el, 'visa').getAttribute('aria-checked')).toBe('true');
  });

  test('throws on an element with no widget', () => {
    expect(() => update(host(), json(netherlands))).toThrowError(/no mounted widget/);
  });
});

describe('unmount', () => {
  test('empties the element and stops events', () => {
    const el = mountBlocks(netherlands);
    expect(el.childElementCount).toBeGreaterThan(0);
    act(() => unmount(el));
    expect(el.innerHTML).toBe('');
    expect(() => update(el, json(netherlands))).toThrowError(/no mounted widget/);
  });

  test('lets the element be mounted again', () => {
    const el = mountBlocks(netherlands);
    act(() => unmount(el));
    act(() => mount(el, 'PaymentMethodBlocks', json({ ...netherlands, selected: 'visa' })));
    expect(radio(el, 'visa').getAttribute('aria-checked')).toBe('true');
  });

  test('is a no-op on an element with no widget', () => {
    const el = host();
    el.textContent = 'server-rendered fallback';
    expect(() => unmount(el)).not.toThrow();
    expect(el.textContent).toBe('server-rendered fallback');
  });
});
