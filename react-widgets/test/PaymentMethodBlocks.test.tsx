// Focused behaviour of the PaymentMethodBlocks widget: grouping, roving tabindex, keyboard,
// selection following props, texts only from props.
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test, vi } from 'vitest';
import type { PaymentMethodBlocksProps } from '../src/generated/PaymentMethodBlocksProps';
import { PAYMENT_METHOD_SELECT, PaymentMethodBlocks } from '../src/widgets/PaymentMethodBlocks';
import { allMethods, labelsNl, netherlands } from '../../stories/fixtures/payment-methods';

function setup(props: Partial<PaymentMethodBlocksProps> = {}) {
  const dispatch = vi.fn<(name: string, detail: unknown) => void>();
  const all = { ...netherlands, ...props, dispatch };
  const user = userEvent.setup();
  const view = render(<PaymentMethodBlocks {...all} />);
  const rerender = (next: Partial<PaymentMethodBlocksProps>) => view.rerender(<PaymentMethodBlocks {...all} {...next} />);
  return { ...view, dispatch, user, rerender };
}

const radio = (name: string) => screen.getByRole('radio', { name });
/** The visible label of a block (its mark's SVG text is decorative). */
const label = (block: HTMLElement) => block.querySelector('.vw-pmb__label')?.textContent;
const checked = () => screen.queryAllByRole('radio', { checked: true }).map(label);
const tabbable = () =>
  screen
    .getAllByRole('radio')
    .filter((r) => r.tabIndex === 0)
    .map(label);

describe('structure', () => {
  test('groups appear in the order of their first method, methods keep their order', () => {
    setup({
      methods: [
        { method: 'paypal', group: 'wallet', label: 'PayPal' },
        { method: 'visa', group: 'card', label: 'Visa' },
        { method: 'apple_pay', group: 'wallet', label: 'Apple Pay' },
        { method: 'ideal', group: 'bank', label: 'iDEAL' },
        { method: 'mastercard', group: 'card', label: 'Mastercard' },
      ],
    });
    const groups = screen.getAllByRole('group');
    const names = groups.map((g) => document.getElementById(g.getAttribute('aria-labelledby')!)?.textContent);
    expect(names).toEqual(['Wallets en apps', 'Kaarten', 'Bank']);
    const inGroup = (name: string) => within(screen.getByRole('group', { name })).getAllByRole('radio').map(label);
    expect(inGroup('Wallets en apps')).toEqual(['PayPal', 'Apple Pay']);
    expect(inGroup('Kaarten')).toEqual(['Visa', 'Mastercard']);
    expect(inGroup('Bank')).toEqual(['iDEAL']);
  });

  test('every visible text comes from props; the marks are hidden from assistive tech', () => {
    const { container } = setup();
    const visible: string[] = [];
    const walker = document.createTreeWalker(container, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.parentElement?.closest('[aria-hidden="true"]')) visible.push(node.textContent ?? '');
    }
    expect(visible).toEqual([
      'Bank',
      'iDEAL',
      'Automatische incasso',
      'Bankoverschrijving',
      'Kaarten',
      'Visa',
      'Mastercard',
      'Wallets en apps',
      'PayPal',
      'Apple Pay',
      'Tegoedbonnen',
      'paysafecard',
    ]);
    const marks = container.querySelectorAll('svg[data-mark]');
    expect(marks).toHaveLength(8);
    marks.forEach((m) => expect(m.closest('[aria-hidden="true"]')).not.toBeNull());
  });

  test('each of the 25 methods has its own mark', () => {
    const { container } = setup(allMethods);
    const drawings = [...container.querySelectorAll('svg[data-mark]')].map((svg) => svg.innerHTML);
    expect(drawings).toHaveLength(25);
    expect(new Set(drawings).size).toBe(25);
  });

  test('an empty list shows the empty text and no radio group', () => {
    setup({ methods: [] });
    expect(screen.getByText(labelsNl.empty)).toBeTruthy();
    expect(screen.queryByRole('radiogroup')).toBeNull();
  });
});

describe('roving tabindex', () => {
  test('with nothing selected only the first block is tabbable', async () => {
    const { user } = setup();
    expect(tabbable()).toEqual(['iDEAL']);
    await user.tab();
    expect(radio('iDEAL')).toBe(document.activeElement);
    await user.tab();
    expect(document.body).toBe(document.activeElement);
  });

  test('with a selection only the selected block is tabbable', async () => {
    const { user } = setup({ selected: 'paypal' });
    expect(tabbable()).toEqual(['PayPal']);
    await user.tab();
    expect(radio('PayPal')).toBe(document.activeElement);
  });

  test('a selection that is not in the list falls back to the first block', () => {
    setup({ selected: 'twint' });
    expect(checked()).toEqual([]);
    expect(tabbable()).toEqual(['iDEAL']);
  });
});

describe('keyboard', () => {
  test('arrows move the focus in visual order, across groups, wrapping, and choose nothing', async () => {
    const { user, dispatch } = setup({ selected: 'bank_transfer' });
    await user.tab();
    expect(radio('Bankoverschrijving')).toBe(document.activeElement);

    await user.keyboard('{ArrowRight}');
    expect(radio('Visa')).toBe(document.activeElement);
    expect(checked()).toEqual(['Bankoverschrijving']);
    // The focused block holds the one tab stop.
    expect(tabbable()).toEqual(['Visa']);

    await user.keyboard('{ArrowUp}{ArrowUp}');
    expect(radio('Automatische incasso')).toBe(document.activeElement);

    await user.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(radio('paysafecard')).toBe(document.activeElement);

    await user.keyboard('{ArrowDown}');
    expect(radio('iDEAL')).toBe(document.activeElement);
    expect(checked()).toEqual(['Bankoverschrijving']);
    expect(dispatch).not.toHaveBeenCalled();
  });

  test('Home and End jump to the first and last block', async () => {
    const { user, dispatch } = setup({ selected: 'visa' });
    await user.tab();
    await user.keyboard('{End}');
    expect(radio('paysafecard')).toBe(document.activeElement);
    await user.keyboard('{Home}');
    expect(radio('iDEAL')).toBe(document.activeElement);
    expect(checked()).toEqual(['Visa']);
    expect(dispatch).not.toHaveBeenCalled();
  });

  test('Space and Enter choose the focused block, each time', async () => {
    const { user, dispatch } = setup();
    await user.tab();
    expect(checked()).toEqual([]);
    await user.keyboard(' ');
    expect(checked()).toEqual(['iDEAL']);
    expect(dispatch).toHaveBeenCalledWith(PAYMENT_METHOD_SELECT, { method: 'ideal' });

    await user.keyboard('{ArrowRight}{Enter}');
    expect(checked()).toEqual(['Automatische incasso']);
    expect(dispatch).toHaveBeenCalledTimes(2);

    // Choosing the chosen block again is a choice too (the checkout page starts paying).
    await user.keyboard(' ');
    expect(dispatch).toHaveBeenCalledTimes(3);
    expect(dispatch).toHaveBeenLastCalledWith(PAYMENT_METHOD_SELECT, { method: 'direct_debit' });
  });

  test('arrows with a modifier are left to the browser', async () => {
    const { user, dispatch } = setup({ selected: 'ideal' });
    await user.tab();
    await user.keyboard('{Control>}{ArrowRight}{/Control}{Alt>}{ArrowDown}{/Alt}');
    expect(checked()).toEqual(['iDEAL']);
    expect(radio('iDEAL')).toBe(document.activeElement);
    expect(dispatch).not.toHaveBeenCalled();
  });

  test('other keys do nothing', async () => {
    const { user, dispatch } = setup({ selected: 'ideal' });
    await user.tab();
    await user.keyboard('ab{Escape}');
    expect(checked()).toEqual(['iDEAL']);
    expect(dispatch).not.toHaveBeenCalled();
  });
});

describe('selection and props', () => {
  test('follows props.selected when the page changes it', () => {
    const { rerender } = setup({ selected: 'ideal' });
    expect(checked()).toEqual(['iDEAL']);
    rerender({ selected: 'mastercard' });
    expect(checked()).toEqual(['Mastercard']);
    rerender({ selected: null });
    expect(checked()).toEqual([]);
  });

  test('keeps the visitor’s pick while props.selected stays the same', async () => {
    const { user, rerender, dispatch } = setup({ selected: 'ideal' });
    await user.click(radio('PayPal'));
    expect(checked()).toEqual(['PayPal']);
    expect(dispatch).toHaveBeenCalledExactlyOnceWith(PAYMENT_METHOD_SELECT, { method: 'paypal' });
    rerender({ selected: 'ideal', labels: { ...labelsNl, title: 'Betaal' } });
    expect(checked()).toEqual(['PayPal']);
    // ...and accepts the page's answer once it confirms the pick.
    rerender({ selected: 'paypal' });
    expect(checked()).toEqual(['PayPal']);
  });
});
