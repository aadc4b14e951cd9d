// Focused behaviour of the ChatPanel widget beyond its stories: the mount API's events (a photo
// send carries its File), pending/stored de-duplication, the unread pill, client ids, the typing
// throttle, 'seen' only when the page is visible, and the draft surviving prop updates.
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { ChatAction } from '../src/generated/ChatAction';
import type { ChatPanelProps } from '../src/generated/ChatPanelProps';
import { mount, unmount, update } from '../src/index';
import { CHAT, ChatPanel, countChars, newClientId, pill } from '../src/widgets/ChatPanel';
import { base, conversations, manyMessages, message, openChat } from '../../stories/fixtures/chat';

const mounted: HTMLElement[] = [];

afterEach(() => {
  for (const el of mounted.splice(0)) act(() => unmount(el));
  document.head.querySelectorAll('link[data-vonk-widgets]').forEach((l) => l.remove());
  vi.unstubAllGlobals();
});

function mountChat(props: ChatPanelProps): { el: HTMLElement; events: CustomEvent[] } {
  const el = document.createElement('div');
  el.style.height = '640px';
  document.body.appendChild(el);
  const events: CustomEvent[] = [];
  el.addEventListener(CHAT, (e) => events.push(e as CustomEvent));
  act(() => mount(el, 'ChatPanel', JSON.stringify(props)));
  mounted.push(el);
  return { el, events };
}

function setup(props: Partial<ChatPanelProps> = {}) {
  const dispatch = vi.fn<(name: string, detail: unknown) => void>();
  const all = { ...base, ...props, dispatch };
  const view = render(<ChatPanel {...all} />);
  const rerender = (next: Partial<ChatPanelProps>) => view.rerender(<ChatPanel {...all} {...next} />);
  const actions = () => dispatch.mock.calls.filter(([name]) => name === CHAT).map(([, detail]) => detail as ChatAction);
  return { ...view, dispatch, rerender, actions, user: userEvent.setup() };
}

/** The virtualised list shows its rows once it has scrolled to the bottom. */
function laidOut(root: ParentNode = document) {
  const list = root.querySelector<HTMLElement>('[data-testid="virtuoso-item-list"]');
  if (!list || list.style.visibility === 'hidden') throw new Error('the message list is not laid out yet');
}

/** The message rows once the virtualised list has laid them out. */
const rows = () =>
  waitFor(() => {
    laidOut();
    return screen.getAllByTestId('chat-row');
  });

const value = (el: HTMLElement) => (el as HTMLTextAreaElement).value;
const disabled = (name: string) => (screen.getByRole('button', { name }) as HTMLButtonElement).disabled;

describe('through mount()', () => {
  test('Enter sends: a bubbling vonk:chat CustomEvent on the mount element with the trimmed text', async () => {
    const user = userEvent.setup();
    const { el, events } = mountChat(base);
    const box = within(el).getByRole('textbox', { name: 'Bericht' });
    await user.type(box, '  Zin in koffie?  {Enter}');
    const sends = events.filter((e) => e.detail.action === 'send');
    expect(sends).toHaveLength(1);
    expect(sends[0].target).toBe(el);
    expect(sends[0].bubbles).toBe(true);
    expect(sends[0].detail).toEqual({ action: 'send', client_id: expect.stringMatching(/^[0-9a-f-]{32,36}$/), text: 'Zin in koffie?' });
    expect(value(box)).toBe('');
  });

  test('a chosen photo is sent with its File in the event detail', async () => {
    const user = userEvent.setup();
    const { el, events } = mountChat(base);
    const input = el.querySelector<HTMLInputElement>('input[type="file"]')!;
    expect(input.accept).toBe('image/jpeg,image/png,image/webp');
    const photo = new File([new Uint8Array([0xff, 0xd8, 0xff])], 'strand.jpg', { type: 'image/jpeg' });
    await user.upload(input, photo);
    const sent = events.find((e) => e.detail.action === 'send_photo');
    expect(sent?.detail).toEqual({ action: 'send_photo', client_id: expect.any(String), file: photo });
    expect(sent?.detail.file).toBeInstanceOf(File);
    // Choosing the same file again is a new send.
    expect(input.value).toBe('');
  });

  test('update() re-renders with new messages and keeps the draft', async () => {
    const user = userEvent.setup();
    const { el } = mountChat(base);
    await user.type(within(el).getByRole('textbox', { name: 'Bericht' }), 'Half af');
    const open = openChat({ messages: [...base.open!.messages, message(false, 'Nieuw bericht!', 0, { id: 600 })] });
    act(() => update(el, JSON.stringify({ ...base, open })));
    await waitFor(() => {
      laidOut(el);
      within(el).getByText('Nieuw bericht!');
    });
    expect(value(within(el).getByRole('textbox', { name: 'Bericht' }))).toBe('Half af');
  });
});

describe('messages', () => {
  test('a pending send already stored (same client id) shows once', async () => {
    const stored = message(true, 'Tot morgen!', 60, { id: 900, client_id: 'client-abc-123' });
    setup({
      open: openChat({
        messages: [message(false, 'Hoi', 120, { id: 899 }), stored],
        pending: [
          { client_id: 'client-abc-123', kind: 'text', body: 'Tot morgen!', gift: null, photo: null, failed: false },
          { client_id: 'client-def-456', kind: 'text', body: 'En nog iets', gift: null, photo: null, failed: false },
        ],
      }),
    });
    const keys = (await rows()).map((r) => r.dataset.key);
    expect(keys).toEqual(['m899', 'm900', 'pclient-def-456']);
    expect(screen.getAllByText('Tot morgen!')).toHaveLength(1);
  });

  test('1,000 messages render only a window, ending with the newest', async () => {
    setup({ open: openChat({ messages: manyMessages(1000) }) });
    const shown = await rows();
    expect(shown.length).toBeGreaterThan(5);
    expect(shown.length).toBeLessThan(60);
    expect(shown[shown.length - 1].textContent).toContain('Bericht 1000 van 1000');
  });

  test('older messages put on top keep rendering; loading shows a spinner', async () => {
    // Virtuoso keeps the view in place with scrollBy, which jsdom lacks.
    if (!HTMLElement.prototype.scrollBy) {
      HTMLElement.prototype.scrollBy = function (this: HTMLElement, options?: ScrollToOptions | number) {
        if (typeof options === 'object') this.scrollTop += options.top ?? 0;
      } as typeof HTMLElement.prototype.scrollBy;
    }
    const recent = manyMessages(30).slice(20);
    const { rerender, user, actions } = setup({ open: openChat({ messages: recent, has_older: true }) });
    await rows();
    await user.click(screen.getByRole('button', { name: 'Oudere berichten laden' }));
    expect(actions()).toContainEqual({ action: 'load_older', before: recent[0].id });
    rerender({ open: openChat({ messages: recent, has_older: true, loading_older: true }) });
    expect(screen.queryByRole('button', { name: 'Oudere berichten laden' })).toBeNull();
    expect(screen.getByText('Oudere berichten laden').closest('[role="status"]')?.querySelector('.vonk-chat__spinner')).toBeTruthy();
    rerender({ open: openChat({ messages: manyMessages(30), has_older: false }) });
    await waitFor(() => {
      laidOut();
      screen.getByText('Bericht 30 van 30');
    });
    expect(screen.queryByRole('button', { name: 'Oudere berichten laden' })).toBeNull();
  });
});

describe('a new conversation', () => {
  test('keeps focus in the text box when its first message gives it an id', async () => {
    const fresh = openChat({ id: null, messages: [], delivered_up_to: 0, read_up_to: 0 });
    const { user, rerender, actions } = setup({ open: fresh });
    expect(screen.queryByRole('button', { name: 'Verwijderen' })).toBeNull();
    const box = screen.getByRole('textbox', { name: 'Bericht' });
    await user.type(box, 'Hoi!{Enter}');
    const send = actions().find((a) => a.action === 'send');
    expect(send).toEqual({ action: 'send', client_id: expect.any(String), text: 'Hoi!' });
    const clientId = (send as { client_id: string }).client_id;
    rerender({
      open: { ...fresh, pending: [{ client_id: clientId, kind: 'text', body: 'Hoi!', gift: null, photo: null, failed: false }] },
    });
    rerender({ open: { ...fresh, id: 77, messages: [message(true, 'Hoi!', 0, { id: 1, client_id: clientId })] } });
    expect((await rows()).map((r) => r.dataset.key)).toEqual(['m1']);
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Bericht' }));
    expect(screen.getByRole('button', { name: 'Verwijderen' })).toBeTruthy();
  });
});

describe('seen', () => {
  test('is reported once per newest peer message, only while the page is visible', async () => {
    let state: DocumentVisibilityState = 'hidden';
    vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => state);
    const { rerender, actions } = setup();
    const seen = () => actions().filter((a) => a.action === 'seen');
    expect(seen()).toEqual([]);

    state = 'visible';
    act(() => void document.dispatchEvent(new Event('visibilitychange')));
    expect(seen()).toEqual([{ action: 'seen', up_to: 509 }]);

    // The same newest message again (other props changed): nothing new.
    rerender({ connection: 'reconnecting' });
    act(() => void document.dispatchEvent(new Event('visibilitychange')));
    expect(seen()).toHaveLength(1);

    // The member's own newest message is not 'seen'.
    rerender({ open: openChat({ messages: [...base.open!.messages, message(true, 'Ja!', 0, { id: 510 })] }) });
    expect(seen()).toHaveLength(1);

    rerender({ open: openChat({ messages: [...base.open!.messages, message(false, 'Top', 0, { id: 511 })] }) });
    expect(seen()).toEqual([
      { action: 'seen', up_to: 509 },
      { action: 'seen', up_to: 511 },
    ]);
  });
});

describe('composer', () => {
  test('typing is reported at most once per 3 seconds', async () => {
    let now = 1_000_000;
    vi.spyOn(Date, 'now').mockImplementation(() => now);
    const { user, actions } = setup();
    const box = screen.getByRole('textbox', { name: 'Bericht' });
    await user.type(box, 'Hallo');
    expect(actions().filter((a) => a.action === 'typing')).toHaveLength(1);
    now += 3000;
    await user.type(box, ' daar');
    expect(actions().filter((a) => a.action === 'typing')).toHaveLength(2);
  });

  test('Shift+Enter is a new line, an empty box sends nothing', async () => {
    const { user, actions } = setup();
    const box = screen.getByRole('textbox', { name: 'Bericht' });
    await user.type(box, '   {Enter}');
    expect(actions().filter((a) => a.action === 'send')).toEqual([]);
    await user.clear(box);
    await user.type(box, 'a{Shift>}{Enter}{/Shift}b');
    expect(value(box)).toBe('a\nb');
    expect(disabled('Versturen')).toBe(false);
  });

  test('the limit counts characters, not UTF-16 units; nothing is cut off', async () => {
    const { user } = setup({ message_length: 10 });
    const box = screen.getByRole('textbox', { name: 'Bericht' });
    await user.click(box);
    await user.paste('😀'.repeat(10));
    expect(screen.getByTestId('chat-counter').textContent).toBe('10/10 tekens');
    expect(disabled('Versturen')).toBe(false);
    await user.paste('!');
    expect(value(box)).toBe(`${'😀'.repeat(10)}!`);
    expect(screen.getByTestId('chat-counter').textContent).toBe('11/10 tekens');
    expect(disabled('Versturen')).toBe(true);
  });

  test('costs show only when they are not zero', () => {
    const { rerender } = setup();
    expect(screen.getByText('Een bericht kost 5 credits')).toBeTruthy();
    expect(screen.getByText('Een foto kost 10 credits')).toBeTruthy();
    rerender({ message_credits: 0, photo_credits: 0 });
    expect(screen.queryByText(/kost/)).toBeNull();
  });

  test('dialogs keep Tab inside and Escape returns focus to the opener', async () => {
    const { user } = setup();
    const opener = screen.getByRole('button', { name: 'Cadeautje sturen' });
    await user.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Stuur een cadeautje' });
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Roos' }));
    const buttons = within(dialog).getAllByRole('button');
    buttons[buttons.length - 1].focus();
    await user.tab();
    expect(document.activeElement).toBe(buttons[0]);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });
});

describe('list', () => {
  test('unread pills cap at 99+ and say the real count', () => {
    setup({
      open: null,
      conversations: [
        { ...conversations[0], id: 1, unread: 99 },
        { ...conversations[1], id: 2, unread: 100 },
        { ...conversations[2], id: 3, unread: 0 },
      ],
    });
    const links = screen.getAllByRole('link');
    const shown = (link: HTMLElement) => link.querySelector('[data-testid="chat-unread"] [aria-hidden="true"]')?.textContent;
    expect(shown(links[0])).toBe('99');
    expect(shown(links[1])).toBe('99+');
    expect(screen.getByRole('link', { name: /100 ongelezen berichten/ })).toBe(links[1]);
    expect(screen.getByRole('link', { name: /99 ongelezen berichten/ })).toBe(links[0]);
    expect(within(links[2]).queryByTestId('chat-unread')).toBeNull();
    expect([pill(1), pill(99), pill(100), pill(12345)]).toEqual(['1', '99', '99+', '99+']);
  });

  test('a plain click opens through the host; a modified click is left to the browser', () => {
    const { actions } = setup({ open: null });
    const link = screen.getAllByRole('link')[0];
    expect(link.getAttribute('href')).toBe('/chats/11');
    const plain = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
    act(() => void link.dispatchEvent(plain));
    expect(plain.defaultPrevented).toBe(true);
    expect(actions()).toEqual([{ action: 'open', conversation: 11 }]);

    const ctrl = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0, ctrlKey: true });
    act(() => void link.dispatchEvent(ctrl));
    expect(ctrl.defaultPrevented).toBe(false);
    fireEvent.click(link, { button: 1 });
    expect(actions()).toHaveLength(1);
  });

  test('the back button asks for the list', async () => {
    const { user, actions } = setup();
    await user.click(screen.getByRole('button', { name: 'Terug naar gesprekken' }));
    expect(actions()).toContainEqual({ action: 'back' });
  });
});

describe('helpers', () => {
  test('client ids: UUIDs where the browser makes them, else 32 hex digits', () => {
    expect(newClientId()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    vi.stubGlobal('crypto', { getRandomValues: (a: Uint8Array) => a.fill(171) });
    expect(newClientId()).toBe('ab'.repeat(16));
    vi.stubGlobal('crypto', undefined);
    const id = newClientId();
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(newClientId()).not.toBe(id);
  });

  test('characters are counted as the server does: code points of the trimmed text', () => {
    expect(countChars('  hoi \n')).toBe(3);
    expect(countChars('😀😀')).toBe(2);
    expect(countChars('a\nb')).toBe(3);
  });
});
