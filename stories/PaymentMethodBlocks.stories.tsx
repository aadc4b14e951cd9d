import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { PAYMENT_METHOD_SELECT, PaymentMethodBlocks } from '../react-widgets/src/widgets/PaymentMethodBlocks';
import { allMethods, labelsNl, netherlands, poland, switzerland } from './fixtures/payment-methods';

const meta = {
  title: 'Widgets/PaymentMethodBlocks',
  component: PaymentMethodBlocks,
  args: {
    ...netherlands,
    // Stands in for the mount element's CustomEvent dispatch; shows up in the Actions panel.
    dispatch: fn().mockName('dispatch'),
  },
  argTypes: {
    dispatch: { description: 'Bound to the mount element: dispatches a bubbling CustomEvent there.' },
  },
} satisfies Meta<typeof PaymentMethodBlocks>;

export default meta;
type Story = StoryObj<typeof meta>;

/** iDEAL comes first in the Netherlands, so the bank group leads. */
export const Netherlands: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const group = canvas.getByRole('radiogroup', { name: 'Kies je betaalmethode' });
    const headings = within(group)
      .getAllByRole('heading')
      .map((h) => h.textContent);
    await expect(headings).toEqual(['Bank', 'Kaarten', 'Wallets en apps', 'Tegoedbonnen']);
    await expect(canvas.getAllByRole('radio')).toHaveLength(8);
    await expect(canvas.queryByRole('radio', { checked: true })).toBeNull();
  },
};

export const Poland: Story = { args: poland };

export const Switzerland: Story = { args: switzerland };

export const PreselectedIdeal: Story = {
  args: { selected: 'ideal' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const ideal = canvas.getByRole('radio', { name: 'iDEAL' });
    await expect(ideal).toHaveAttribute('aria-checked', 'true');
    await expect(ideal).toHaveAttribute('tabindex', '0');
    for (const radio of canvas.getAllByRole('radio').filter((r) => r !== ideal)) {
      await expect(radio).toHaveAttribute('aria-checked', 'false');
      await expect(radio).toHaveAttribute('tabindex', '-1');
    }
  },
};

export const Empty: Story = {
  args: { methods: [], selected: null, labels: labelsNl },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByText(labelsNl.empty)).toBeVisible();
    await expect(canvas.queryByRole('radio')).toBeNull();
  },
};

export const AllMethods: Story = {
  args: allMethods,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getAllByRole('radio')).toHaveLength(25);
    // Every method has its own drawn mark.
    await expect(canvasElement.querySelectorAll('svg[data-mark]')).toHaveLength(25);
  },
};

export const Mobile: Story = {
  globals: { viewport: { value: 'mobile375', isRotated: false } },
};

/** Clicking a block chooses it and fires `vonk:payment-method-select`; so does clicking it again
 * (on the checkout page the preselected block starts paying too). */
export const ClickToSelect: Story = {
  play: async ({ args, canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(args.dispatch).not.toHaveBeenCalled();

    const paypal = canvas.getByRole('radio', { name: 'PayPal' });
    await userEvent.click(paypal);
    await expect(paypal).toHaveAttribute('aria-checked', 'true');
    await expect(args.dispatch).toHaveBeenCalledTimes(1);
    await expect(args.dispatch).toHaveBeenLastCalledWith(PAYMENT_METHOD_SELECT, { method: 'paypal' });

    const visa = canvas.getByRole('radio', { name: 'Visa' });
    await userEvent.click(visa);
    await expect(visa).toHaveAttribute('aria-checked', 'true');
    await expect(paypal).toHaveAttribute('aria-checked', 'false');
    await expect(args.dispatch).toHaveBeenCalledTimes(2);
    await expect(args.dispatch).toHaveBeenLastCalledWith(PAYMENT_METHOD_SELECT, { method: 'visa' });
  },
};

/** The checkout page of `/credits/{id}/ideal`: the preselected block answers a click. */
export const PreselectedClick: Story = {
  args: { selected: 'ideal' },
  play: async ({ args, canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('radio', { name: 'iDEAL' }));
    await expect(args.dispatch).toHaveBeenCalledTimes(1);
    await expect(args.dispatch).toHaveBeenLastCalledWith(PAYMENT_METHOD_SELECT, { method: 'ideal' });
  },
};

/** Looking is not choosing: Tab enters the group, the arrows (wrapping), Home and End move the
 * focus and nothing is chosen; Enter or Space chooses the focused block. */
export const KeyboardLooksThenChooses: Story = {
  play: async ({ args, canvasElement }) => {
    const canvas = within(canvasElement);
    const radio = (name: string) => canvas.getByRole('radio', { name });

    await userEvent.tab();
    await expect(radio('iDEAL')).toHaveFocus();

    // Next in visual order: the bank group's other two blocks come before the cards.
    await userEvent.keyboard('{ArrowRight}');
    await waitFor(() => expect(radio('Automatische incasso')).toHaveFocus());
    await userEvent.keyboard('{ArrowLeft}{ArrowLeft}');
    await expect(radio('paysafecard')).toHaveFocus();
    await userEvent.keyboard('{ArrowDown}');
    await expect(radio('iDEAL')).toHaveFocus();
    await userEvent.keyboard('{End}');
    await expect(radio('paysafecard')).toHaveFocus();
    await userEvent.keyboard('{Home}{ArrowDown}');
    await expect(radio('Automatische incasso')).toHaveFocus();
    // The focused block holds the one tab stop; nothing was chosen while looking.
    await expect(canvas.getAllByRole('radio').filter((r) => r.tabIndex === 0)).toEqual([radio('Automatische incasso')]);
    await expect(canvas.queryByRole('radio', { checked: true })).toBeNull();
    await expect(args.dispatch).not.toHaveBeenCalled();

    await userEvent.keyboard('{Enter}');
    await expect(radio('Automatische incasso')).toHaveAttribute('aria-checked', 'true');
    await expect(args.dispatch).toHaveBeenCalledTimes(1);
    await expect(args.dispatch).toHaveBeenLastCalledWith(PAYMENT_METHOD_SELECT, { method: 'direct_debit' });

    await userEvent.keyboard('{ArrowRight} ');
    await expect(args.dispatch).toHaveBeenCalledTimes(2);
    await expect(args.dispatch).toHaveBeenLastCalledWith(PAYMENT_METHOD_SELECT, {
      method: canvas.getByRole('radio', { checked: true }).getAttribute('data-method'),
    });
    await expect(radio('Automatische incasso')).toHaveAttribute('aria-checked', 'false');
  },
};

/** With a method preselected, the keyboard starts there and still chooses nothing by moving. */
export const KeyboardFromPreselected: Story = {
  args: { selected: 'ideal' },
  play: async ({ args, canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.tab();
    await expect(canvas.getByRole('radio', { name: 'iDEAL' })).toHaveFocus();
    await userEvent.keyboard('{ArrowRight}{ArrowRight}');
    await expect(canvas.getByRole('radio', { name: 'iDEAL' })).toHaveAttribute('aria-checked', 'true');
    await expect(args.dispatch).not.toHaveBeenCalled();
  },
};
