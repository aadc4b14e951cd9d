import { useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type ChangeEvent, type KeyboardEvent, type MouseEvent } from 'react';
import type { ChatAction } from '../../generated/ChatAction';
import type { ChatAlert } from '../../generated/ChatAlert';
import type { ChatPanelLabels } from '../../generated/ChatPanelLabels';
import type { ChatPanelProps } from '../../generated/ChatPanelProps';
import type { ChatSummary } from '../../generated/ChatSummary';
import type { Gift } from '../../generated/Gift';
import type { OpenChat } from '../../generated/OpenChat';
import type { WidgetProps } from '../../types';
import { Dialog } from './Dialog';
import { FictionalMark, GiftPicture } from './gifts';
import {
  AlertIcon,
  BackIcon,
  BlockIcon,
  FlagIcon,
  ChatsIcon,
  CloseIcon,
  GiftIcon,
  InfoIcon,
  PhotoIcon,
  ProfileIcon,
  SendIcon,
  SparkIcon,
  TickIcon,
  TrashIcon,
} from './icons';
import { MessageList, buildEntries } from './MessageList';
import { CHAT, TYPING_THROTTLE_MS, countChars, counted, fill, isoTime, listTime, newClientId, pill } from './util';
import './ChatPanel.css';

/** A photo send carries the chosen file beside the JSON fields. */
export type ChatEventDetail = ChatAction | (Extract<ChatAction, { action: 'send_photo' }> & { file: File });

type Send = (detail: ChatEventDetail) => void;

/** Photo types the server accepts. */
const PHOTO_TYPES = 'image/jpeg,image/png,image/webp';

function Avatar({ name, photo, size = 'm' }: { name: string; photo: string | null; size?: 's' | 'm' | 'l' }) {
  return photo ? (
    <img className={`vonk-chat__avatar vonk-chat__avatar--${size}`} src={photo} alt="" loading="lazy" decoding="async" />
  ) : (
    <span className={`vonk-chat__avatar vonk-chat__avatar--${size} vonk-chat__avatar--initial`} aria-hidden="true">
      {Array.from(name.trim())[0]?.toUpperCase() ?? '?'}
    </span>
  );
}

/** A plain left click is the host's to handle; a modified or middle click follows the link. */
function isPlainClick(event: MouseEvent): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey && !event.defaultPrevented;
}

function ConversationList({
  conversations,
  openId,
  labels,
  locale,
  fictionalIcon,
  now,
  send,
}: {
  conversations: ChatSummary[] | null;
  openId: number | null;
  labels: ChatPanelLabels;
  locale: string;
  fictionalIcon: string;
  now: number;
  send: Send;
}) {
  const headingId = useId();
  return (
    <section className="vonk-chat__list" aria-labelledby={headingId} data-testid="chat-list">
      <h2 id={headingId} className="vonk-chat__list-title">
        {labels.conversations}
      </h2>
      {conversations === null ? (
        <div className="vonk-chat__loading" role="status" aria-busy="true" data-testid="chat-list-loading">
          <span className="vonk-chat__sr">{labels.loading}</span>
          {[0, 1, 2, 3, 4].map((i) => (
            <span key={i} className="vonk-chat__skeleton" aria-hidden="true">
              <span className="vonk-chat__skeleton-avatar" />
              <span className="vonk-chat__skeleton-lines">
                <span />
                <span />
              </span>
            </span>
          ))}
        </div>
      ) : conversations.length === 0 ? (
        <div className="vonk-chat__empty-list" data-testid="chat-list-empty">
          <ChatsIcon />
          <p>{labels.empty_list}</p>
          <a className="vonk-chat__button vonk-chat__button--primary" href="/members">
            {labels.find_members}
          </a>
        </div>
      ) : (
        <ul className="vonk-chat__items">
          {conversations.map((c) => {
            const active = c.id === openId;
            return (
              <li key={c.id}>
                <a
                  className={`vonk-chat__item${active ? ' vonk-chat__item--active' : ''}${c.unread > 0 ? ' vonk-chat__item--unread' : ''}`}
                  href={c.href}
                  aria-current={active ? 'true' : undefined}
                  data-conversation={c.id}
                  onClick={(event) => {
                    if (!isPlainClick(event)) return;
                    event.preventDefault();
                    send({ action: 'open', conversation: c.id });
                  }}
                >
                  <Avatar name={c.peer.name} photo={c.peer.photo} />
                  <span className="vonk-chat__item-main">
                    <span className="vonk-chat__item-top">
                      <span className="vonk-chat__item-name">{c.peer.name}</span>
                      {c.peer.fictional && <FictionalMark icon={fictionalIcon} label={labels.fictional} />}
                      {c.last_at > 0 && (
                        <time className="vonk-chat__item-time" dateTime={isoTime(c.last_at)}>
                          {listTime(c.last_at, now, locale, labels)}
                        </time>
                      )}
                    </span>
                    <span className="vonk-chat__item-bottom">
                      <span className="vonk-chat__item-last">
                        {c.last_mine && <TickIcon />}
                        <span>{c.last}</span>
                      </span>
                      {c.unread > 0 && (
                        <span className="vonk-chat__unread" data-testid="chat-unread">
                          <span aria-hidden="true">{pill(c.unread)}</span>
                          <span className="vonk-chat__sr">{counted(labels.unread, c.unread)}</span>
                        </span>
                      )}
                    </span>
                  </span>
                </a>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

function AlertBar({ alert, labels, send }: { alert: ChatAlert; labels: ChatPanelLabels; send: Send }) {
  return (
    <div className="vonk-chat__alert" role="alert" data-code={alert.code} data-testid="chat-alert">
      <AlertIcon />
      <p>
        {alert.text}
        {alert.link && (
          <>
            {' '}
            <a href={alert.link.href}>{alert.link.text}</a>
          </>
        )}
      </p>
      <button
        type="button"
        className="vonk-chat__icon-button vonk-chat__icon-button--small"
        aria-label={labels.close}
        title={labels.close}
        onClick={() => send({ action: 'dismiss_alert' })}
      >
        <CloseIcon />
      </button>
    </div>
  );
}

interface ComposerProps {
  props: ChatPanelProps;
  send: Send;
  /** The conversation is empty: the icebreakers button stands out. */
  fresh: boolean;
}

function Composer({ props, send, fresh }: ComposerProps) {
  const { labels, gifts, icebreakers } = props;
  const [text, setText] = useState(props.draft ?? '');
  // Reached through a profile's gift button, the chat opens with its gift picker.
  const [dialog, setDialog] = useState<null | 'gifts' | 'icebreakers'>(props.gift_picker && gifts.length > 0 ? 'gifts' : null);
  const box = useRef<HTMLTextAreaElement>(null);
  // Text typed into the page's own form while the panel loaded arrives as `draft`: it fills an
  // empty box, and takes the focus the page's form had (its form has just gone).
  const draft = props.draft ?? '';
  useEffect(() => {
    if (!draft) return;
    setText((current) => (current === '' ? draft : current));
    const el = box.current;
    if (el && (document.activeElement === null || document.activeElement === document.body)) {
      el.focus();
      el.setSelectionRange(el.value.length, el.value.length);
    }
  }, [draft]);
  const file = useRef<HTMLInputElement>(null);
  const lastTyping = useRef(0);
  const picked = useRef(false);
  const ids = { box: useId(), counter: useId(), costs: useId(), giftCost: useId(), photoCost: useId() };

  const max = Math.max(1, props.message_length);
  const count = countChars(text);
  const over = count > max;
  const showCounter = over || count >= Math.floor(max * 0.8);
  const canSend = count > 0 && !over;
  const showCosts = props.message_credits > 0 || props.photo_credits > 0;
  // What is left: free text messages first, then the balance; said before a send it cannot pay.
  const freeLeft = Math.max(0, props.free_messages);
  const short = freeLeft === 0 && props.message_credits > 0 && props.balance < props.message_credits;

  // Grows with its text up to a few lines (where the browser can measure).
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    el.style.height = '';
    // Not for the placeholder, which may wrap in a narrow box.
    if (text && el.scrollHeight > el.clientHeight) el.style.height = `${Math.min(el.scrollHeight + 2, 168)}px`;
  }, [text]);

  function submit() {
    if (!canSend) return;
    send({ action: 'send', client_id: newClientId(), text: text.trim() });
    setText('');
    lastTyping.current = 0;
    box.current?.focus();
  }

  function onChange(event: ChangeEvent<HTMLTextAreaElement>) {
    const value = event.target.value;
    setText(value);
    const now = Date.now();
    if (value.trim() && now - lastTyping.current >= TYPING_THROTTLE_MS) {
      lastTyping.current = now;
      send({ action: 'typing' });
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    // Enter sends, Shift+Enter is a new line; not while an input method is composing.
    if (event.key !== 'Enter' || event.shiftKey || event.altKey || event.ctrlKey || event.metaKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    submit();
  }

  function onPhoto(event: ChangeEvent<HTMLInputElement>) {
    const chosen = event.target.files?.[0];
    event.target.value = '';
    if (chosen) send({ action: 'send_photo', client_id: newClientId(), file: chosen });
  }

  function chooseGift(gift: Gift) {
    send({ action: 'send_gift', client_id: newClientId(), gift });
    setDialog(null);
  }

  function chooseLine(line: string) {
    picked.current = true;
    setText(line);
    setDialog(null);
  }

  const describedBy = [showCosts ? ids.costs : '', showCounter ? ids.counter : ''].filter(Boolean).join(' ') || undefined;

  return (
    <form
      className="vonk-chat__composer"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      {short && (
        <p className="vonk-chat__short" role="status" data-testid="chat-short">
          {labels.balance_short} <a href={props.buy_href}>{labels.buy}</a>
        </p>
      )}
      <div className="vonk-chat__compose-row">
        <div className="vonk-chat__tools">
          {icebreakers.length > 0 && (
            <button
              type="button"
              className={`vonk-chat__tool${fresh ? ' vonk-chat__tool--highlight' : ''}`}
              title={labels.icebreakers}
              aria-haspopup="dialog"
              onClick={() => {
                picked.current = false;
                setDialog('icebreakers');
              }}
              data-testid="chat-icebreakers"
            >
              <SparkIcon />
              <span className={fresh ? 'vonk-chat__tool-text' : 'vonk-chat__sr'}>{labels.icebreakers}</span>
            </button>
          )}
          <button
            type="button"
            className="vonk-chat__tool"
            aria-label={labels.photo}
            title={labels.photo}
            aria-describedby={props.photo_credits > 0 ? ids.photoCost : undefined}
            onClick={() => file.current?.click()}
          >
            <PhotoIcon />
          </button>
          {gifts.length > 0 && (
            <button
              type="button"
              className="vonk-chat__tool"
              aria-label={labels.gift}
              title={labels.gift}
              aria-haspopup="dialog"
              onClick={() => setDialog('gifts')}
            >
              <GiftIcon />
            </button>
          )}
        </div>
        <label htmlFor={ids.box} className="vonk-chat__sr">
          {labels.message}
        </label>
        <textarea
          ref={box}
          id={ids.box}
          className="vonk-chat__input"
          rows={1}
          value={text}
          placeholder={labels.placeholder}
          aria-invalid={over || undefined}
          aria-describedby={describedBy}
          onChange={onChange}
          onKeyDown={onKeyDown}
        />
        <button type="submit" className="vonk-chat__send" disabled={!canSend} title={labels.send}>
          <SendIcon />
          <span className="vonk-chat__send-text">{labels.send}</span>
        </button>
      </div>
      {(showCosts || showCounter) && (
        <div className="vonk-chat__compose-meta">
          {showCosts && (
            <p id={ids.costs} className="vonk-chat__costs">
              <span className="vonk-chat__balance" data-testid="chat-balance">
                {counted(labels.balance, props.balance)}
              </span>
              {freeLeft > 0 && props.message_credits > 0 && <span data-testid="chat-free-left">{fill(labels.free_left, { count: freeLeft })}</span>}
              {props.message_credits > 0 && <span>{counted(labels.cost_message, props.message_credits)}</span>}
              {props.photo_credits > 0 && <span id={ids.photoCost}>{counted(labels.cost_photo, props.photo_credits)}</span>}
            </p>
          )}
          {showCounter && (
            <p id={ids.counter} className={`vonk-chat__counter${over ? ' vonk-chat__counter--over' : ''}`} data-testid="chat-counter">
              {fill(labels.characters, { count, max })}
            </p>
          )}
        </div>
      )}
      <input ref={file} type="file" accept={PHOTO_TYPES} hidden tabIndex={-1} onChange={onPhoto} data-testid="chat-photo-input" />
      {dialog === 'gifts' && (
        <Dialog
          title={labels.gifts_title}
          closeLabel={labels.close}
          onClose={() => setDialog(null)}
          className="vonk-chat__dialog--sheet vonk-chat__dialog--wide"
          describedBy={props.gift_credits > 0 ? ids.giftCost : undefined}
        >
          {props.gift_credits > 0 && (
            <p id={ids.giftCost} className="vonk-chat__dialog-note">
              {counted(labels.cost_gift, props.gift_credits)}
            </p>
          )}
          <ul className="vonk-chat__gifts">
            {gifts.map((g) => (
              <li key={g.gift}>
                <button type="button" className="vonk-chat__gift-choice" onClick={() => chooseGift(g.gift)} data-gift={g.gift}>
                  <GiftPicture gift={g.gift} size={56} />
                  <span>{g.label}</span>
                </button>
              </li>
            ))}
          </ul>
        </Dialog>
      )}
      {dialog === 'icebreakers' && (
        <Dialog
          title={labels.icebreakers_title}
          closeLabel={labels.close}
          onClose={() => setDialog(null)}
          className="vonk-chat__dialog--sheet"
          returnFocus={() => (picked.current ? box.current : null)}
        >
          <ul className="vonk-chat__lines">
            {icebreakers.map((line, i) => (
              <li key={i}>
                <button type="button" className="vonk-chat__line" onClick={() => chooseLine(line)}>
                  {line}
                </button>
              </li>
            ))}
          </ul>
        </Dialog>
      )}
    </form>
  );
}

function Conversation({ props, open, now, send }: { props: ChatPanelProps; open: OpenChat; now: number; send: Send }) {
  const { labels, locale } = props;
  const peer = open.peer;
  const nameId = useId();
  const questionId = useId();
  const [confirm, setConfirm] = useState<null | 'block' | 'delete'>(null);

  const entries = useMemo(() => buildEntries(open, now, locale, labels), [open, now, locale, labels]);
  const fresh = entries.length === 0 && !open.has_older;

  const giftLabels = useMemo(() => Object.fromEntries(props.gifts.map((g) => [g.gift, g.label])) as Partial<Record<Gift, string>>, [props.gifts]);

  const retry = useCallback((client_id: string) => send({ action: 'retry', client_id }), [send]);
  const discard = useCallback((client_id: string) => send({ action: 'discard', client_id }), [send]);
  const loadOlder = useCallback((before: number) => send({ action: 'load_older', before }), [send]);

  const empty = useMemo(
    () => (
      <div className="vonk-chat__empty-chat" data-testid="chat-empty">
        <Avatar name={peer.name} photo={peer.photo} size="l" />
        <p>{fill(labels.empty_chat, { name: peer.name })}</p>
      </div>
    ),
    [peer.name, peer.photo, labels.empty_chat],
  );

  const context = useMemo(
    () => ({
      labels,
      locale,
      peerName: peer.name,
      titleId: nameId,
      readUpTo: open.read_up_to,
      deliveredUpTo: open.delivered_up_to,
      giftLabels,
      hasOlder: open.has_older,
      loadingOlder: open.loading_older,
      retry,
      discard,
      empty,
    }),
    [labels, locale, peer.name, nameId, open.read_up_to, open.delivered_up_to, giftLabels, open.has_older, open.loading_older, retry, discard, empty],
  );

  // The newest message is the peer's and the conversation is on screen: it has been seen (once per id).
  const newest = open.messages[open.messages.length - 1];
  const seen = useRef(0);
  const newestId = newest && !newest.mine ? newest.id : 0;
  useEffect(() => {
    if (!newestId) return;
    const tell = () => {
      if (document.visibilityState === 'visible' && seen.current < newestId) {
        seen.current = newestId;
        send({ action: 'seen', up_to: newestId });
      }
    };
    tell();
    document.addEventListener('visibilitychange', tell);
    return () => document.removeEventListener('visibilitychange', tell);
  }, [newestId, send]);

  const details = [peer.age !== null ? String(peer.age) : '', peer.place].filter(Boolean).join(' · ');
  const confirmLabel = confirm === 'delete' ? labels.delete : labels.block;

  return (
    <>
      <header className="vonk-chat__head">
        <button
          type="button"
          className="vonk-chat__icon-button vonk-chat__back"
          aria-label={labels.back}
          title={labels.back}
          onClick={() => send({ action: 'back' })}
        >
          <BackIcon />
        </button>
        <a className="vonk-chat__head-photo" href={peer.href} tabIndex={-1} aria-hidden="true">
          <Avatar name={peer.name} photo={peer.photo} />
        </a>
        <div className="vonk-chat__who">
          <h2 className="vonk-chat__name">
            <span id={nameId}>{peer.name}</span>
            {peer.fictional && <FictionalMark icon={props.fictional_icon} label={labels.fictional} />}
          </h2>
          {details && <p className="vonk-chat__details">{details}</p>}
        </div>
        <div className="vonk-chat__actions">
          <a className="vonk-chat__action" href={peer.href} title={labels.view_profile}>
            <ProfileIcon />
            <span className="vonk-chat__action-text">{labels.view_profile}</span>
          </a>
          <button type="button" className="vonk-chat__action" title={labels.block} aria-haspopup="dialog" onClick={() => setConfirm('block')}>
            <BlockIcon />
            <span className="vonk-chat__action-text">{labels.block}</span>
          </button>
          {open.id !== null && (
            <a className="vonk-chat__action" href={`/complaints?conversation=${open.id}#complaint`} title={labels.report} data-testid="chat-report">
              <FlagIcon />
              <span className="vonk-chat__action-text">{labels.report}</span>
            </a>
          )}
          {open.id !== null && (
            <button type="button" className="vonk-chat__action" title={labels.delete} aria-haspopup="dialog" onClick={() => setConfirm('delete')}>
              <TrashIcon />
              <span className="vonk-chat__action-text">{labels.delete}</span>
            </button>
          )}
        </div>
      </header>
      {peer.fictional && labels.fictional_warning && (
        <p className="vonk-chat__note vonk-chat__note--fictional" data-testid="chat-fictional-warning">
          <InfoIcon />
          <span>{labels.fictional_warning}</span>
        </p>
      )}
      {open.peer_unconfirmed && (
        <p className="vonk-chat__note" data-testid="chat-unconfirmed">
          <InfoIcon />
          <span>{fill(labels.peer_unconfirmed, { name: peer.name })}</span>
        </p>
      )}
      <div className="vonk-chat__messages">
        <MessageList entries={entries} oldestId={open.messages[0]?.id ?? null} context={context} onLoadOlder={loadOlder} />
      </div>
      <div className="vonk-chat__typing" aria-live="polite" data-testid="chat-typing">
        {open.peer_typing && (
          <>
            <span className="vonk-chat__dots" aria-hidden="true">
              <span />
              <span />
              <span />
            </span>
            <span>{fill(labels.typing, { name: peer.name })}</span>
          </>
        )}
      </div>
      {props.alert && <AlertBar alert={props.alert} labels={labels} send={send} />}
      {open.blocked ? (
        <p className="vonk-chat__blocked" data-testid="chat-blocked">
          <BlockIcon />
          <span>{labels.blocked}</span>
        </p>
      ) : (
        <Composer props={props} send={send} fresh={fresh} />
      )}
      {confirm && (
        <Dialog title={confirmLabel} closeLabel={labels.close} onClose={() => setConfirm(null)} describedBy={confirm === 'delete' ? questionId : undefined}>
          <div className="vonk-chat__confirm-peer">
            <Avatar name={peer.name} photo={peer.photo} />
            <strong>{peer.name}</strong>
          </div>
          {confirm === 'delete' && (
            <p id={questionId} className="vonk-chat__confirm-text">
              {fill(labels.delete_confirm, { name: peer.name })}
            </p>
          )}
          <div className="vonk-chat__confirm-buttons">
            <button type="button" className="vonk-chat__button" onClick={() => setConfirm(null)}>
              {labels.cancel}
            </button>
            <button
              type="button"
              className="vonk-chat__button vonk-chat__button--danger"
              onClick={() => {
                if (confirm === 'delete' && open.id !== null) send({ action: 'delete', conversation: open.id });
                if (confirm === 'block') send({ action: 'block', member: peer.id });
                setConfirm(null);
              }}
            >
              {confirmLabel}
            </button>
          </div>
        </Dialog>
      )}
    </>
  );
}

/**
 * The chat panel: the conversation list beside the open conversation (one of them at a time on
 * phones). Presentational: everything it shows comes from props, everything the member does is a
 * `vonk:chat` event whose detail is a `ChatAction` (a photo send adds the chosen `File` as `file`).
 */
export function ChatPanel(props: WidgetProps<ChatPanelProps>) {
  const { dispatch, conversations, open, labels, connection } = props;
  const [now, setNow] = useState(() => Date.now());

  // Relative times ("14:05", "yesterday") move on while the panel stays open.
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);

  const send = useCallback<Send>((detail) => dispatch(CHAT, detail), [dispatch]);
  const connectionText = connection === 'reconnecting' ? labels.reconnecting : connection === 'offline' ? labels.offline : '';

  return (
    <div className={`vonk-chat${open ? ' vonk-chat--open' : ''}`} data-testid="chat-panel">
      <div className={`vonk-chat__connection vonk-chat__connection--${connection}`} role="status" data-testid="chat-connection">
        {connectionText}
      </div>
      {!open && props.alert && <AlertBar alert={props.alert} labels={labels} send={send} />}
      <div className="vonk-chat__main">
        <ConversationList
          conversations={conversations}
          openId={open?.id ?? null}
          labels={labels}
          locale={props.locale}
          fictionalIcon={props.fictional_icon}
          now={now}
          send={send}
        />
        <section className="vonk-chat__conversation" aria-label={open ? open.peer.name : undefined} data-testid="chat-conversation">
          {open ? (
            // Keyed by the peer: a new conversation getting its id on the first send stays mounted.
            <Conversation key={open.peer.id} props={props} open={open} now={now} send={send} />
          ) : (
            <div className="vonk-chat__placeholder">
              <ChatsIcon />
            </div>
          )}
        </section>
      </div>
    </div>
  );
}
