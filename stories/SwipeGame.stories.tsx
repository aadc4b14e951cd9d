import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { SWIPE, SwipeGame, formatWait } from '../react-widgets/src/widgets/SwipeGame';
import { cards, free, labelsNl } from './fixtures/swipe';

const meta = {
  title: 'Widgets/SwipeGame',
  component: SwipeGame,
  args: {
    ...free,
    // Stands in for the mount element's CustomEvent dispatch; shows up in the Actions panel.
    dispatch: fn().mockName('dispatch'),
  },
  parameters: { layout: 'padded' },
} satisfies Meta<typeof SwipeGame>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The last like of the day: the count in its singular form. */
export const LastLikeToday: Story = {
  args: { remaining: 1 },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByTestId('swipe-remaining')).toHaveTextContent(/^Nog 1 like vandaag$/);
  },
};

/** A free member with 4 likes left: the like button likes the top card, the next one follows. */
export const FreeMember: Story = {
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByTestId('swipe-remaining')).toHaveTextContent('Nog 4 likes vandaag');
    await expect(canvas.getByTestId('swipe-card')).toHaveTextContent('Sanne, 29');
    await userEvent.click(canvas.getByRole('button', { name: 'Leuk' }));
    await expect(args.dispatch).toHaveBeenCalledWith(SWIPE, { id: 101, like: true });
    await waitFor(() => expect(canvas.getByTestId('swipe-card')).toHaveTextContent('Lotte, 34'));
  },
};

/** The arrow keys play too: left passes, right likes. */
export const Keyboard: Story = {
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    canvas.getByRole('group', { name: labelsNl.title }).focus();
    await userEvent.keyboard('{ArrowLeft}');
    await expect(args.dispatch).toHaveBeenCalledWith(SWIPE, { id: 101, like: false });
    await waitFor(() => expect(canvas.getByTestId('swipe-card')).toHaveAttribute('data-id', '102'));
    canvas.getByRole('group', { name: labelsNl.title }).focus();
    await userEvent.keyboard('{ArrowRight}');
    await expect(args.dispatch).toHaveBeenLastCalledWith(SWIPE, { id: 102, like: true });
  },
};

/** Premium members have no counter. */
export const Premium: Story = {
  args: { remaining: null },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).queryByTestId('swipe-remaining')).toBeNull();
  },
};

/** Without a photo the card shows the initial. */
export const NoPhoto: Story = {
  args: { cards: [cards[2]] },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByTestId('swipe-card')).toHaveTextContent('N');
  },
};

/** The likes of today are used up: the 'come back' state with the time left, and no like button. */
export const ComeBack: Story = {
  args: { remaining: 0, next_at: Math.floor(Date.now() / 1000) + 3 * 3600 + 5 * 60 },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByTestId('swipe-come-back')).toHaveTextContent('Je likes voor vandaag zijn op');
    await expect(canvas.getByTestId('swipe-come-back')).toHaveTextContent(/Kom terug over 3:0[45] uur/);
    await expect(canvas.queryByRole('button', { name: 'Leuk' })).toBeNull();
  },
};

/** Everyone seen. */
export const Empty: Story = {
  args: { cards: [] },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByTestId('swipe-empty')).toHaveTextContent('Je hebt iedereen gezien');
  },
};

/** A like back is a match: the full-screen 'New like!' with one button that closes it. */
export const Match: Story = {
  args: { matched: cards[1] },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const dialog = canvas.getByRole('dialog', { name: 'Nieuwe like!' });
    await expect(dialog).toHaveTextContent('Jij en Lotte vinden elkaar leuk.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Verder' }));
    await expect(canvas.queryByRole('dialog')).toBeNull();
  },
};

export const WaitFormat: Story = {
  play: async () => {
    await expect(formatWait(1000, 1000 * 1000 - 59 * 60 * 1000)).toBe('0:59');
    await expect(formatWait(1000, 2000 * 1000)).toBe('0:00');
  },
};
