import type { Meta, StoryObj } from '@storybook/react-vite';
import type { ReactNode } from 'react';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { CHAT, ChatPanel } from '../react-widgets/src/widgets/ChatPanel';
import { base, conversations, labelsNl, lotte, manyMessages, message, noor, openChat } from './fixtures/chat';

/** The host gives the panel its height; here a tall box in the canvas (`parameters.chatHeight`). */
const frame = (Story: () => ReactNode, { parameters }: { parameters: { chatHeight?: string } }) => (
  <div style={{ height: parameters.chatHeight ?? 'min(760px, calc(100vh - 2rem))', minHeight: 420 }}>
    <Story />
  </div>
);

const meta = {
  title: 'Widgets/ChatPanel',
  component: ChatPanel,
  args: {
    ...base,
    // Stands in for the mount element's CustomEvent dispatch; shows up in the Actions panel.
    dispatch: fn().mockName('dispatch'),
  },
  decorators: [frame],
  parameters: { layout: 'padded' },
} satisfies Meta<typeof ChatPanel>;

export default meta;
type Story = StoryObj<typeof meta>;

/**
 * The parts of the panel, for queries that must not match the list beside the conversation; first
 * waits until the message list has laid out its rows (it shows them once it is at the bottom).
 */
const parts = async (canvasElement: HTMLElement) => {
  await waitFor(() => {
    const list = canvasElement.querySelector<HTMLElement>('[data-testid="virtuoso-item-list"]');
    if (list && list.style.visibility === 'hidden') throw new Error('the message list is not laid out yet');
  });
  const canvas = within(canvasElement);
  return {
    canvas,
    list: within(canvas.getByTestId('chat-list')),
    chat: within(canvas.getByTestId('chat-conversation')),
  };
};
/** A message row by key (`m{id}` stored, `p{client_id}` pending), once the list has laid it out. */
const row = (canvasElement: HTMLElement, key: string) =>
  waitFor(() => {
    const found = canvasElement.querySelector<HTMLElement>(`[data-testid="chat-row"][data-key="${key}"]`);
    if (!found) throw new Error(`no row ${key}`);
    expect(found).toBeVisible();
    return found;
  });
/** All message rows in the DOM, once the list has laid them out. */
const rows = async (canvasElement: HTMLElement) => (await parts(canvasElement)).chat.getAllByTestId('chat-row');

/** The list is still loading: a busy placeholder with the loading text. */
export const Loading: Story = {
  args: { conversations: null, open: null },
  play: async ({ canvasElement }) => {
    const { canvas } = await parts(canvasElement);
    const loading = canvas.getByTestId('chat-list-loading');
    await expect(loading).toHaveAttribute('aria-busy', 'true');
    await expect(loading).toHaveTextContent(labelsNl.loading);
    await expect(canvas.queryAllByRole('link')).toHaveLength(0);
  },
};

/** No conversations yet: the empty text and a way to find members. */
export const EmptyList: Story = {
  args: { conversations: [], open: null },
  play: async ({ canvasElement }) => {
    const { list } = await parts(canvasElement);
    await expect(list.getByText(labelsNl.empty_list)).toBeVisible();
    await expect(list.getByRole('link', { name: 'Leden zoeken' })).toHaveAttribute('href', '/members');
  },
};

/** A new conversation (no id yet): the empty text, the icebreakers stand out, nothing to delete. */
export const EmptyConversation: Story = {
  args: { open: openChat({ id: null, peer: noor, messages: [], delivered_up_to: 0, read_up_to: 0 }) },
  play: async ({ canvasElement }) => {
    const { chat } = await parts(canvasElement);
    await expect(chat.getByTestId('chat-empty')).toHaveTextContent('Nog geen berichten. Zeg hallo tegen Noor!');
    const icebreakers = chat.getByRole('button', { name: 'Openingszinnen' });
    await expect(icebreakers).toHaveClass('vonk-chat__tool--highlight');
    await expect(icebreakers).toHaveTextContent('Openingszinnen');
    await expect(chat.queryByRole('button', { name: 'Verwijderen' })).toBeNull();
    await expect(chat.queryByRole('link', { name: 'Gesprek melden' })).toBeNull();
    await expect(chat.queryAllByTestId('chat-row')).toHaveLength(0);
  },
};

/** Text with line breaks, a photo, gifts, day separators; the peer's newest message is reported seen. */
export const TextPhotoGiftMessages: Story = {
  play: async ({ canvasElement, args }) => {
    const { chat } = await parts(canvasElement);
    await expect(await rows(canvasElement)).toHaveLength(9);
    await expect((await row(canvasElement, 'm505')).querySelector('.vonk-chat__text')?.textContent).toBe('Wat mooi!\nWaar is dat?\n\nIk wil daar ook heen 🌴');
    await expect(chat.getByRole('img', { name: 'Foto' })).toHaveAttribute('src', expect.stringMatching(/^data:image\/svg\+xml/));
    await expect(chat.getByRole('img', { name: 'Roos' })).toBeVisible();
    await expect(chat.getByText('Cadeautje: Roos')).toBeVisible();
    await expect(chat.getByRole('img', { name: 'Champagne' })).toBeVisible();
    await expect(chat.getByText('Gisteren')).toBeVisible();
    await expect(chat.getByText('Vandaag')).toBeVisible();
    await expect(chat.getByRole('log', { name: 'Sanne' })).toHaveAttribute('aria-live', 'polite');
    // The conversation can be reported from its header (the complaint form knows which one).
    await expect(chat.getByRole('link', { name: 'Gesprek melden' })).toHaveAttribute('href', `/complaints?conversation=${args.open!.id}#complaint`);
    await waitFor(() => expect(args.dispatch).toHaveBeenCalledWith(CHAT, { action: 'seen', up_to: 509 }));
  },
};

/** A message on its way: after the stored ones, muted, marked as sending. */
export const Sending: Story = {
  args: {
    open: openChat({
      pending: [{ client_id: 'c-sending-1', kind: 'text', body: 'Ik kijk even in mijn agenda…', gift: null, photo: null, failed: false }],
    }),
  },
  play: async ({ canvasElement }) => {
    const all = await rows(canvasElement);
    const last = all[all.length - 1];
    await expect(last).toHaveAttribute('data-key', 'pc-sending-1');
    await expect(last).toHaveClass('vonk-chat__row--sending');
    await expect(last).toHaveTextContent('Ik kijk even in mijn agenda…');
    await expect(last).toHaveTextContent('Wordt verstuurd…');
  },
};

/** A send that failed: retry sends it again with the same client id; the cross drops it. */
export const FailedWithRetry: Story = {
  args: {
    open: openChat({
      pending: [{ client_id: 'c-failed-1', kind: 'text', body: 'Zaterdag om drie uur?', gift: null, photo: null, failed: true }],
    }),
  },
  play: async ({ canvasElement, args }) => {
    const failed = within(await row(canvasElement, 'pc-failed-1'));
    await expect(failed.getByText('Niet verstuurd.')).toBeVisible();
    await userEvent.click(failed.getByRole('button', { name: 'Opnieuw' }));
    await expect(args.dispatch).toHaveBeenCalledWith(CHAT, { action: 'retry', client_id: 'c-failed-1' });
    await userEvent.click(failed.getByRole('button', { name: 'Verwijderen' }));
    await expect(args.dispatch).toHaveBeenCalledWith(CHAT, { action: 'discard', client_id: 'c-failed-1' });
  },
};

/** Not enough credits: the refusal above the footer, with a link to buy credits, dismissable. */
export const InsufficientCredits: Story = {
  args: {
    alert: {
      code: 'insufficient_credits',
      text: 'Je hebt onvoldoende credits om dit bericht te versturen',
      link: { href: '/credits', text: 'Credits kopen' },
    },
  },
  play: async ({ canvasElement, args }) => {
    const { chat } = await parts(canvasElement);
    const alert = chat.getByRole('alert');
    await expect(alert).toHaveTextContent('Je hebt onvoldoende credits om dit bericht te versturen');
    await expect(within(alert).getByRole('link', { name: 'Credits kopen' })).toHaveAttribute('href', '/credits');
    await userEvent.click(within(alert).getByRole('button', { name: 'Sluiten' }));
    await expect(args.dispatch).toHaveBeenCalledWith(CHAT, { action: 'dismiss_alert' });
  },
};

/** The footer says what is left and what a message costs: the balance, then the free messages. */
export const CostsWithFreeMessages: Story = {
  args: { free_messages: 3, balance: 20 },
  play: async ({ canvasElement }) => {
    const { chat } = await parts(canvasElement);
    await expect(chat.getByTestId('chat-balance')).toHaveTextContent('Saldo: 20 credits');
    await expect(chat.getByTestId('chat-free-left')).toHaveTextContent('Gratis berichten over: 3');
    await expect(chat.queryByTestId('chat-short')).toBeNull();
  },
};

/** One credit left, and a message costing one: each count in its own form. */
export const OneCreditLeft: Story = {
  args: { free_messages: 0, balance: 1, message_credits: 1 },
  play: async ({ canvasElement }) => {
    const { chat } = await parts(canvasElement);
    await expect(chat.getByTestId('chat-balance')).toHaveTextContent('Saldo: 1 credit');
    await expect(chat.getByTestId('chat-balance')).not.toHaveTextContent('credits');
    await expect(chat.getByText('Een bericht kost 1 credit')).toBeInTheDocument();
  },
};

/** No free messages and too few credits for the next text: said before sending, with the link. */
export const BalanceTooLow: Story = {
  args: { free_messages: 0, balance: 3, message_credits: 5, buy_href: '/credits/repeat-order' },
  play: async ({ canvasElement }) => {
    const { chat } = await parts(canvasElement);
    const short = chat.getByTestId('chat-short');
    await expect(short).toHaveTextContent('Je saldo is te laag voor een bericht.');
    await expect(within(short).getByRole('link', { name: 'Credits kopen' })).toHaveAttribute('href', '/credits/repeat-order');
    await expect(chat.getByTestId('chat-balance')).toHaveTextContent('Saldo: 3 credits');
    await expect(chat.queryByTestId('chat-free-left')).toBeNull();
  },
};

/** A premium-only feature: the refusal links to premium. */
export const PremiumOnly: Story = {
  args: {
    alert: {
      code: 'premium_only',
      text: 'Deze functie is alleen beschikbaar voor premium leden.',
      link: { href: '/premium', text: 'Word premium' },
    },
  },
  play: async ({ canvasElement }) => {
    const alert = (await parts(canvasElement)).chat.getByRole('alert');
    await expect(alert).toHaveTextContent('Deze functie is alleen beschikbaar voor premium leden.');
    await expect(within(alert).getByRole('link', { name: 'Word premium' })).toHaveAttribute('href', '/premium');
  },
};

/** Contact details were hidden in the sent text (the site masks them): a calm note, no link. */
export const ContactDetailsHidden: Story = {
  args: { alert: { code: 'contact_masked', text: 'Verstuurd. Contactgegevens in je bericht zijn verborgen (•••).', link: null } },
  play: async ({ canvasElement, args }) => {
    const alert = (await parts(canvasElement)).chat.getByRole('alert');
    await expect(alert).toHaveTextContent('Contactgegevens in je bericht zijn verborgen (•••).');
    await expect(alert).toHaveAttribute('data-code', 'contact_masked');
    await expect(within(alert).queryByRole('link')).toBeNull();
    await userEvent.click(within(alert).getByRole('button', { name: 'Sluiten' }));
    await expect(args.dispatch).toHaveBeenCalledWith(CHAT, { action: 'dismiss_alert' });
  },
};

/** The site refuses contact details: the reason above the footer, the typed text back in the box. */
export const ContactDetailsRefused: Story = {
  args: {
    draft: 'app me op nul zes 12 34 56 78',
    alert: {
      code: 'contact_details_refused',
      text: 'Contactgegevens (een telefoonnummer, e-mail- of webadres, of een naam op een andere app) kun je in de chat niet delen. Pas je bericht aan.',
      link: null,
    },
  },
  play: async ({ canvasElement }) => {
    const { chat } = await parts(canvasElement);
    await expect(chat.getByRole('alert')).toHaveTextContent('kun je in de chat niet delen');
    await expect(chat.getByRole('textbox', { name: 'Bericht' })).toHaveValue('app me op nul zes 12 34 56 78');
  },
};

/** The peer blocked the member: the footer is replaced by the blocked text. */
export const Blocked: Story = {
  args: { open: openChat({ blocked: true }) },
  play: async ({ canvasElement }) => {
    const { chat } = await parts(canvasElement);
    await expect(chat.getByTestId('chat-blocked')).toHaveTextContent('Dit lid heeft je geblokkeerd.');
    await expect(chat.queryByRole('textbox')).toBeNull();
    await expect(chat.queryByRole('button', { name: 'Versturen' })).toBeNull();
  },
};

/** The recipient has not confirmed their address: an info bar, and own messages wait. */
export const RecipientUnconfirmed: Story = {
  args: {
    open: openChat({
      peer: noor,
      id: 13,
      messages: [
        message(false, 'Hoi! Ik ben nieuw hier.', 2 * 3600, { id: 701 }),
        message(true, 'Welkom! Waar kom je vandaan?', 600, { id: 702, waiting: true }),
      ],
      delivered_up_to: 0,
      read_up_to: 0,
      peer_unconfirmed: true,
    }),
  },
  play: async ({ canvasElement }) => {
    const { chat } = await parts(canvasElement);
    await expect(chat.getByTestId('chat-unconfirmed')).toHaveTextContent(
      'Noor heeft het e-mailadres nog niet bevestigd. Je berichten worden afgeleverd zodra dat gebeurt.',
    );
    await expect(await row(canvasElement, 'm702')).toHaveTextContent('Wacht op bevestiging');
  },
};

/**
 * Photos in staff's review: the member's own shows beside it that it is being checked; the
 * peer's that waits hidden says it is checked first, without the picture; a photo staff turned
 * down says so, to its sender beside the picture and to its recipient instead of it.
 */
export const PhotosInReview: Story = {
  args: {
    open: openChat({
      messages: [
        message(true, '', 3 * 3600, { id: 801, kind: 'photo', photo: '/media/chat/801', photo_review: 'waiting' }),
        message(false, '', 2 * 3600, { id: 802, kind: 'photo', photo: null, photo_review: 'hidden' }),
        message(false, '', 3600, { id: 803, kind: 'photo', photo: null, photo_review: 'rejected' }),
        message(true, '', 600, { id: 804, kind: 'photo', photo: '/media/chat/804', photo_review: 'rejected' }),
        message(false, '', 300, { id: 805, kind: 'photo', photo: '/media/chat/805', photo_review: 'waiting' }),
      ],
      delivered_up_to: 804,
      read_up_to: 804,
    }),
  },
  play: async ({ canvasElement }) => {
    await parts(canvasElement);
    const own = await row(canvasElement, 'm801');
    await expect(own.querySelector('img')).toHaveAttribute('src', '/media/chat/801');
    await expect(own).toHaveTextContent('Wordt gecontroleerd');
    const held = await row(canvasElement, 'm802');
    await expect(held.querySelector('img')).toBeNull();
    await expect(held).toHaveTextContent('Foto wordt eerst gecontroleerd');
    const refused = await row(canvasElement, 'm803');
    await expect(refused.querySelector('img')).toBeNull();
    await expect(refused).toHaveTextContent('Foto niet doorgelaten door de moderatie');
    await expect((await row(canvasElement, 'm804')).querySelector('img')).toHaveAttribute('src', '/media/chat/804');
    await expect(await row(canvasElement, 'm804')).toHaveTextContent('Foto niet doorgelaten door de moderatie');
    // The recipient of a photo that is shown while it waits is not told it waits.
    const shown = await row(canvasElement, 'm805');
    await expect(shown.querySelector('img')).toHaveAttribute('src', '/media/chat/805');
    await expect(shown.querySelector('[data-testid="photo-review"]')).toBeNull();
  },
};

/** The peer is typing: the animated dots with the typing text. */
export const Typing: Story = {
  args: { open: openChat({ peer_typing: true }) },
  play: async ({ canvasElement }) => {
    const typing = (await parts(canvasElement)).chat.getByTestId('chat-typing');
    await expect(typing).toHaveTextContent('Sanne is aan het typen…');
    await expect(typing.querySelectorAll('.vonk-chat__dots span')).toHaveLength(3);
  },
};

/** Own messages: read up to 507 (double tick), delivered up to 508 (single tick), then nothing. */
export const DeliveredAndRead: Story = {
  args: {
    open: openChat({
      messages: [
        message(true, 'Heb je mijn vorige bericht gezien?', 30 * 60, { id: 507 }),
        message(true, 'Ik ben benieuwd!', 20 * 60, { id: 508 }),
        message(true, 'Hallo?', 60, { id: 510 }),
      ],
      read_up_to: 507,
      delivered_up_to: 508,
    }),
  },
  play: async ({ canvasElement }) => {
    await expect(within(await row(canvasElement, 'm507')).getByRole('img', { name: 'Gelezen' })).toBeVisible();
    await expect(within(await row(canvasElement, 'm508')).getByRole('img', { name: 'Afgeleverd' })).toBeVisible();
    await expect(within(await row(canvasElement, 'm510')).queryByRole('img')).toBeNull();
  },
};

/** The socket dropped: a thin status bar. */
export const Reconnecting: Story = {
  args: { connection: 'reconnecting' },
  play: async ({ canvasElement }) => {
    const bar = (await parts(canvasElement)).canvas.getByTestId('chat-connection');
    await expect(bar).toHaveAttribute('role', 'status');
    await expect(bar).toHaveTextContent('Verbinding verbroken, opnieuw verbinden…');
  },
};

/** No network at all. */
export const Offline: Story = {
  args: { connection: 'offline' },
  play: async ({ canvasElement }) => {
    const { canvas } = await parts(canvasElement);
    await expect(canvas.getByRole('status')).toHaveClass('vonk-chat__connection--offline');
    await expect(canvas.getByTestId('chat-connection')).toHaveTextContent('Je bent offline. Berichten worden verstuurd zodra je weer online bent.');
  },
};

/** A long conversation: only a window of the 1,000 messages is in the DOM, the newest among them. */
export const ThousandMessages: Story = {
  args: { open: openChat({ messages: manyMessages(1000), has_older: false, read_up_to: 0, delivered_up_to: 0 }) },
  play: async ({ canvasElement }) => {
    const { chat } = await parts(canvasElement);
    await waitFor(() => expect(chat.getByText('Bericht 1000 van 1000')).toBeVisible());
    const shown = await rows(canvasElement);
    await expect(shown.length).toBeGreaterThan(0);
    await expect(shown.length).toBeLessThan(100);
    await expect(chat.queryByText('Bericht 1 van 1000')).toBeNull();
  },
};

/** Older messages: a button at the top asks for the page before the oldest shown. */
export const LoadOlder: Story = {
  args: { open: openChat({ has_older: true }) },
  play: async ({ canvasElement, args }) => {
    await userEvent.click((await parts(canvasElement)).chat.getByRole('button', { name: 'Oudere berichten laden' }));
    await expect(args.dispatch).toHaveBeenCalledWith(CHAT, { action: 'load_older', before: 501 });
  },
};

/** A phone (375 px) with no conversation open: the list is the screen. */
export const Phone: Story = {
  args: { open: null },
  globals: { viewport: { value: 'mobile375', isRotated: false } },
  parameters: { layout: 'fullscreen', chatHeight: '100vh' },
  play: async ({ canvasElement, args }) => {
    const { list } = await parts(canvasElement);
    const links = list.getAllByRole('link');
    await expect(links).toHaveLength(conversations.length);
    await expect(links[2]).toHaveTextContent('99+');
    await expect(links[2]).toHaveAccessibleName(expect.stringContaining('130 ongelezen berichten'));
    await userEvent.click(links[0]);
    await expect(args.dispatch).toHaveBeenCalledWith(CHAT, { action: 'open', conversation: 11 });
  },
};

/** A fictional profile: the mark beside the name and the site's warning under the header. */
export const FictionalProfile: Story = {
  args: { open: openChat({ id: 12, peer: lotte, messages: [message(false, 'Hoi schat, hoe was je dag?', 300, { id: 801 })] }) },
  play: async ({ canvasElement }) => {
    const { chat } = await parts(canvasElement);
    await expect(chat.getByRole('heading', { name: /Lotte/ })).toContainElement(chat.getAllByRole('img', { name: 'Fictief profiel' })[0]);
    await expect(chat.getByTestId('chat-fictional-warning')).toHaveTextContent(labelsNl.fictional_warning);
  },
};

/** Delete asks first in a dialog; Escape closes it and focus returns, confirming dispatches delete. */
export const DeleteAndBlock: Story = {
  play: async ({ canvasElement, args }) => {
    const { chat, canvas } = await parts(canvasElement);
    const del = chat.getByRole('button', { name: 'Verwijderen' });
    await userEvent.click(del);
    const dialog = canvas.getByRole('dialog', { name: 'Verwijderen' });
    await expect(dialog).toHaveAttribute('aria-modal', 'true');
    await expect(dialog).toHaveAccessibleDescription('Wil je het gesprek met Sanne verwijderen? Dit kan niet ongedaan worden gemaakt.');
    await userEvent.keyboard('{Escape}');
    await expect(canvas.queryByRole('dialog')).toBeNull();
    await expect(del).toHaveFocus();
    await expect(args.dispatch).not.toHaveBeenCalledWith(CHAT, expect.objectContaining({ action: 'delete' }));

    await userEvent.click(del);
    await userEvent.click(within(canvas.getByRole('dialog')).getByRole('button', { name: 'Verwijderen' }));
    await expect(args.dispatch).toHaveBeenCalledWith(CHAT, { action: 'delete', conversation: 11 });

    await userEvent.click(chat.getByRole('button', { name: 'Blokkeren' }));
    await userEvent.click(within(canvas.getByRole('dialog', { name: 'Blokkeren' })).getByRole('button', { name: 'Blokkeren' }));
    await expect(args.dispatch).toHaveBeenCalledWith(CHAT, { action: 'block', member: 201 });
  },
};

/** Choosing an icebreaker fills the text box (it does not send) and puts the cursor there. */
export const IcebreakerFillsTextBox: Story = {
  play: async ({ canvasElement, args }) => {
    const { chat, canvas } = await parts(canvasElement);
    await userEvent.click(chat.getByRole('button', { name: 'Openingszinnen' }));
    const dialog = canvas.getByRole('dialog', { name: 'Kies een openingszin' });
    await userEvent.click(within(dialog).getByRole('button', { name: base.icebreakers[1] }));
    await expect(canvas.queryByRole('dialog')).toBeNull();
    const box = chat.getByRole('textbox', { name: 'Bericht' });
    await expect(box).toHaveValue(base.icebreakers[1]);
    await expect(box).toHaveFocus();
    await expect(args.dispatch).not.toHaveBeenCalledWith(CHAT, expect.objectContaining({ action: 'send' }));
  },
};

/** The gift picker lists the drawn gifts with their cost; choosing one sends it. */
export const GiftPicker: Story = {
  play: async ({ canvasElement, args }) => {
    const { chat, canvas } = await parts(canvasElement);
    const opener = chat.getByRole('button', { name: 'Cadeautje sturen' });
    await userEvent.click(opener);
    const dialog = canvas.getByRole('dialog', { name: 'Stuur een cadeautje' });
    await expect(dialog).toHaveTextContent('Een cadeautje kost 20 credits');
    await expect(within(dialog).getAllByRole('button')).toHaveLength(1 + base.gifts.length);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Teddybeer' }));
    await expect(args.dispatch).toHaveBeenCalledWith(CHAT, { action: 'send_gift', client_id: expect.any(String), gift: 'teddy' });
    await expect(canvas.queryByRole('dialog')).toBeNull();
    await expect(opener).toHaveFocus();
  },
};

/** Reached through a profile's gift button (`?gift=1`): the picker is open at once; closing it
 * leaves the conversation as it was. */
export const GiftPickerFromProfile: Story = {
  args: { gift_picker: true },
  play: async ({ canvasElement, args }) => {
    const { canvas } = await parts(canvasElement);
    const dialog = await canvas.findByRole('dialog', { name: 'Stuur een cadeautje' });
    await expect(dialog).toHaveTextContent('Een cadeautje kost 20 credits');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Roos' }));
    await expect(args.dispatch).toHaveBeenCalledWith(CHAT, { action: 'send_gift', client_id: expect.any(String), gift: 'rose' });
    await expect(canvas.queryByRole('dialog')).toBeNull();
  },
};

/** Text typed into the page's own form before the panel loaded comes with it: the box starts
 * with the draft, and sending it sends that text. */
export const DraftCarriedOver: Story = {
  args: { draft: 'Hoi Sanne, ik typte dit al' },
  play: async ({ canvasElement, args }) => {
    const { chat } = await parts(canvasElement);
    const box = chat.getByRole('textbox', { name: 'Bericht' });
    await expect(box).toHaveValue('Hoi Sanne, ik typte dit al');
    await userEvent.click(box);
    await userEvent.keyboard('!{Enter}');
    await expect(args.dispatch).toHaveBeenCalledWith(CHAT, { action: 'send', client_id: expect.any(String), text: 'Hoi Sanne, ik typte dit al!' });
    await expect(box).toHaveValue('');
  },
};

/** Enter sends the trimmed text with a new client id; Shift+Enter is a new line. */
export const SendWithEnter: Story = {
  play: async ({ canvasElement, args }) => {
    const { chat } = await parts(canvasElement);
    const box = chat.getByRole('textbox', { name: 'Bericht' });
    await userEvent.type(box, '  Hoi Sanne!{Shift>}{Enter}{/Shift}Tot zaterdag  ');
    await expect(args.dispatch).toHaveBeenCalledWith(CHAT, { action: 'typing' });
    await userEvent.keyboard('{Enter}');
    await expect(args.dispatch).toHaveBeenCalledWith(CHAT, {
      action: 'send',
      client_id: expect.stringMatching(/^[0-9a-f-]{32,36}$/),
      text: 'Hoi Sanne!\nTot zaterdag',
    });
    await expect(box).toHaveValue('');
  },
};

/** Over the limit: the counter turns red and send is disabled; nothing is cut off. */
export const TooLong: Story = {
  args: { message_length: 40 },
  play: async ({ canvasElement, args }) => {
    const { chat } = await parts(canvasElement);
    const box = chat.getByRole('textbox', { name: 'Bericht' });
    const text = 'Dit bericht is echt veel te lang voor de limiet van deze site.';
    await userEvent.click(box);
    await userEvent.paste(text);
    await expect(box).toHaveValue(text);
    await expect(box).toHaveAttribute('aria-invalid', 'true');
    const counter = chat.getByTestId('chat-counter');
    await expect(counter).toHaveTextContent(`${text.length}/40 tekens`);
    await expect(counter).toHaveClass('vonk-chat__counter--over');
    await expect(chat.getByRole('button', { name: 'Versturen' })).toBeDisabled();
    await userEvent.keyboard('{Enter}');
    await expect(args.dispatch).not.toHaveBeenCalledWith(CHAT, expect.objectContaining({ action: 'send' }));
  },
};
