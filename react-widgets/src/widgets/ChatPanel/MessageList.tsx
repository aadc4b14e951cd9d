import { forwardRef, useCallback, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { Virtuoso, VirtuosoMockContext, type ScrollerProps, type VirtuosoHandle } from 'react-virtuoso';
import type { ChatMessage } from '../../generated/ChatMessage';
import type { ChatPanelLabels } from '../../generated/ChatPanelLabels';
import type { Gift } from '../../generated/Gift';
import type { OpenChat } from '../../generated/OpenChat';
import type { PendingMessage } from '../../generated/PendingMessage';
import type { PhotoReview } from '../../generated/PhotoReview';
import { GiftPicture } from './gifts';
import { ClockIcon, CloseIcon, DoubleTickIcon, RetryIcon, TickIcon } from './icons';
import { dayLabel, dayOf, fill, fullTime, isoTime, timeOfDay } from './util';

/** One row of the conversation: a stored message or a send that is not stored yet. */
export type Entry = {
  key: string;
  mine: boolean;
  at: number;
  /** The day separator above it, if it starts a day. */
  day: string | null;
  /** Follows a message of the same side within a few minutes (drawn closer). */
  grouped: boolean;
} & ({ type: 'stored'; message: ChatMessage } | { type: 'pending'; pending: PendingMessage });

/** Messages within this many seconds of the one before, from the same side, are drawn as a group. */
const GROUP_SECS = 300;

/**
 * The rows to show, oldest first: stored messages, then pending sends. A pending send whose
 * client id is already stored is the same message (the host drops it soon) and shows once.
 */
export function buildEntries(open: OpenChat, nowMs: number, locale: string, labels: ChatPanelLabels): Entry[] {
  const stored = new Set(open.messages.map((m) => m.client_id).filter(Boolean));
  const nowSecs = Math.floor(nowMs / 1000);
  const rows: Omit<Entry, 'day' | 'grouped'>[] = [
    ...open.messages.map((message) => ({ key: `m${message.id}`, type: 'stored' as const, message, mine: message.mine, at: message.at })),
    ...open.pending
      .filter((p) => !stored.has(p.client_id))
      .map((pending) => ({ key: `p${pending.client_id}`, type: 'pending' as const, pending, mine: true, at: nowSecs })),
  ];
  let prev: Omit<Entry, 'day' | 'grouped'> | null = null;
  return rows.map((row) => {
    const newDay = !prev || dayOf(prev.at) !== dayOf(row.at);
    const grouped = !!prev && !newDay && prev.mine === row.mine && row.at - prev.at < GROUP_SECS;
    prev = row;
    return { ...row, day: newDay ? dayLabel(row.at, nowMs, locale, labels) : null, grouped } as Entry;
  });
}

export interface ListContext {
  labels: ChatPanelLabels;
  locale: string;
  peerName: string;
  titleId: string;
  readUpTo: number;
  deliveredUpTo: number;
  giftLabels: Partial<Record<Gift, string>>;
  hasOlder: boolean;
  loadingOlder: boolean;
  loadOlder: () => void;
  retry: (clientId: string) => void;
  discard: (clientId: string) => void;
  empty: ReactNode;
}

/** The scrolling element is the conversation's log: labelled by the peer's name, focusable to scroll. */
const Scroller = forwardRef<HTMLDivElement, ScrollerProps & { context?: ListContext }>(function Scroller({ context, ...props }, ref) {
  return (
    <div {...props} ref={ref} className="vonk-chat__log" role="log" aria-live="polite" aria-labelledby={context?.titleId} tabIndex={0} data-testid="chat-log" />
  );
});

function Header({ context }: { context?: ListContext }) {
  if (!context?.hasOlder) return <div className="vonk-chat__log-start" />;
  return (
    <div className="vonk-chat__older">
      {context.loadingOlder ? (
        <span className="vonk-chat__older-loading" role="status">
          <span className="vonk-chat__spinner" aria-hidden="true" />
          <span className="vonk-chat__sr">{context.labels.load_older}</span>
        </span>
      ) : (
        <button type="button" className="vonk-chat__pill-button" onClick={context.loadOlder}>
          {context.labels.load_older}
        </button>
      )}
    </div>
  );
}

const Footer = () => <div className="vonk-chat__log-end" />;

function EmptyPlaceholder({ context }: { context?: ListContext }) {
  return <>{context?.empty}</>;
}

const COMPONENTS = { Scroller, Header, Footer, EmptyPlaceholder };

function Status({ entry, ctx }: { entry: Entry; ctx: ListContext }) {
  const { labels } = ctx;
  let icon: ReactNode = null;
  let text = '';
  let kind = '';
  if (entry.type === 'pending') {
    if (entry.pending.failed) return null;
    icon = <ClockIcon />;
    text = labels.sending;
    kind = 'sending';
  } else if (entry.mine) {
    const m = entry.message;
    if (m.waiting) {
      icon = <ClockIcon />;
      text = labels.waiting;
      kind = 'waiting';
    } else if (m.id <= ctx.readUpTo) {
      icon = <DoubleTickIcon />;
      text = labels.read;
      kind = 'read';
    } else if (m.id <= ctx.deliveredUpTo) {
      icon = <TickIcon />;
      text = labels.delivered;
      kind = 'delivered';
    }
  }
  if (!kind) return null;
  // Waiting and sending are spelled out; the ticks are marks with their word as name and tooltip.
  return kind === 'read' || kind === 'delivered' ? (
    <span className={`vonk-chat__status vonk-chat__status--${kind}`} role="img" aria-label={text} title={text} data-status={kind}>
      {icon}
    </span>
  ) : (
    <span className={`vonk-chat__status vonk-chat__status--${kind}`} data-status={kind}>
      {icon}
      <span>{text}</span>
    </span>
  );
}

/** What staff's review says beside (or instead of) a photo, for the member who looks at it. */
function reviewNote(review: PhotoReview | null, mine: boolean, shown: boolean, labels: ListContext['labels']): string | null {
  if (review === 'rejected') return labels.photo_rejected;
  if (review === 'waiting' || review === 'hidden') return mine ? labels.photo_in_review : shown ? null : labels.photo_held;
  return null;
}

function Body({
  kind,
  body,
  photo,
  review,
  mine,
  gift,
  ctx,
}: {
  kind: string;
  body: string;
  photo: string | null;
  review: PhotoReview | null;
  mine: boolean;
  gift: Gift | null;
  ctx: ListContext;
}) {
  const { labels } = ctx;
  if (kind === 'photo') {
    const note = reviewNote(review, mine, photo !== null, labels);
    return (
      <>
        {photo ? (
          <a className="vonk-chat__photo" href={photo} target="_blank" rel="noopener noreferrer">
            <img src={photo} alt={labels.photo_sent} loading="lazy" decoding="async" />
          </a>
        ) : (
          !note && <p className="vonk-chat__text">{labels.photo_sent}</p>
        )}
        {note && (
          <p className="vonk-chat__review" data-testid="photo-review">
            {note}
          </p>
        )}
      </>
    );
  }
  if (kind === 'gift' && gift) {
    const name = ctx.giftLabels[gift] ?? gift;
    return (
      <div className="vonk-chat__gift">
        <GiftPicture gift={gift} label={name} size={88} />
        <p className="vonk-chat__gift-text">{fill(labels.gift_sent, { gift: name })}</p>
      </div>
    );
  }
  return <p className="vonk-chat__text">{body}</p>;
}

function Row({ entry, ctx }: { entry: Entry; ctx: ListContext }) {
  const { labels } = ctx;
  const source = entry.type === 'stored' ? entry.message : entry.pending;
  const failed = entry.type === 'pending' && entry.pending.failed;
  const classes = [
    'vonk-chat__row',
    entry.mine ? 'vonk-chat__row--mine' : 'vonk-chat__row--theirs',
    entry.grouped ? 'vonk-chat__row--grouped' : '',
    entry.type === 'pending' ? (failed ? 'vonk-chat__row--failed' : 'vonk-chat__row--sending') : '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <div className={classes} data-testid="chat-row" data-key={entry.key}>
      {entry.day && (
        <div className="vonk-chat__day">
          <span>{entry.day}</span>
        </div>
      )}
      <div className={`vonk-chat__bubble vonk-chat__bubble--${source.kind}`}>
        {!entry.mine && <span className="vonk-chat__sr">{ctx.peerName}: </span>}
        <Body
          kind={source.kind}
          body={source.body}
          photo={source.photo}
          review={entry.type === 'stored' ? entry.message.photo_review : null}
          mine={entry.mine}
          gift={source.gift}
          ctx={ctx}
        />
        <span className="vonk-chat__meta">
          {entry.type === 'stored' && (
            <time dateTime={isoTime(entry.at)} title={fullTime(entry.at, ctx.locale)}>
              {timeOfDay(entry.at, ctx.locale)}
            </time>
          )}
          <Status entry={entry} ctx={ctx} />
        </span>
      </div>
      {failed && (
        <div className="vonk-chat__failed">
          <span>{labels.failed}</span>
          <button type="button" className="vonk-chat__retry" onClick={() => ctx.retry(entry.pending.client_id)}>
            <RetryIcon />
            {labels.retry}
          </button>
          <button
            type="button"
            className="vonk-chat__icon-button vonk-chat__icon-button--small"
            aria-label={labels.delete}
            title={labels.delete}
            onClick={() => ctx.discard(entry.pending.client_id)}
          >
            <CloseIcon />
          </button>
        </div>
      )}
    </div>
  );
}

function itemContent(_index: number, entry: Entry, ctx: ListContext) {
  return <Row entry={entry} ctx={ctx} />;
}

function itemKey(_index: number, entry: Entry) {
  return entry.key;
}

/** Index the first row gets; rows loaded above it count down from here (Virtuoso's prepend API). */
const FIRST_INDEX = 1_000_000;

/**
 * Where the browser cannot measure (no ResizeObserver: jsdom, very old browsers), rows get a
 * fixed height and the viewport a fixed size through Virtuoso's documented mock context, so the
 * newest messages still render (and only a window of them).
 */
const UNMEASURED = typeof ResizeObserver === 'undefined' ? { viewportHeight: 640, itemHeight: 72 } : undefined;

interface MessageListProps {
  entries: Entry[];
  /** Id of the oldest stored message, to ask for the page before it. */
  oldestId: number | null;
  context: Omit<ListContext, 'loadOlder'>;
  onLoadOlder: (before: number) => void;
}

/**
 * The conversation's messages in a virtualised list: opens at the bottom, follows new messages
 * while the member is at the bottom, keeps its place when older ones are put on top, and asks
 * for older ones at the top.
 */
export function MessageList({ entries, oldestId, context, onLoadOlder }: MessageListProps) {
  const ref = useRef<VirtuosoHandle>(null);
  const first = useRef<{ key: string | null; index: number }>({ key: null, index: FIRST_INDEX });
  const asked = useRef<number | null>(null);

  // Older rows put on top: lower the first index by their number, so the view stays put.
  const firstKey = entries[0]?.key ?? null;
  if (firstKey !== first.current.key) {
    const was = first.current.key === null ? -1 : entries.findIndex((e) => e.key === first.current.key);
    first.current = { key: firstKey, index: was > 0 ? first.current.index - was : first.current.index };
  }

  // The button always asks; reaching the top asks once per oldest message.
  const loadOlder = useCallback(
    (auto: boolean) => {
      if (oldestId === null || !context.hasOlder || context.loadingOlder || (auto && asked.current === oldestId)) return;
      asked.current = oldestId;
      onLoadOlder(oldestId);
    },
    [oldestId, context.hasOlder, context.loadingOlder, onLoadOlder],
  );

  // Reaching the top asks for more, but not before the list first settled at the bottom (it starts
  // at the top for a moment); a short conversation that fits asks right away.
  const settled = useRef(false);
  const atTop = useRef(false);

  const ctx = useMemo<ListContext>(() => ({ ...context, loadOlder: () => loadOlder(false) }), [context, loadOlder]);

  // The member's own new send: show it, wherever they had scrolled to.
  const last = entries[entries.length - 1];
  const lastKey = useRef(last?.key);
  useEffect(() => {
    if (last && last.key !== lastKey.current && last.type === 'pending') {
      ref.current?.scrollToIndex({ index: 'LAST', align: 'end', behavior: 'auto' });
    }
    lastKey.current = last?.key;
  }, [last]);

  return (
    <VirtuosoMockContext.Provider value={UNMEASURED}>
      <Virtuoso<Entry, ListContext>
        ref={ref}
        data={entries}
        context={ctx}
        components={COMPONENTS}
        itemContent={itemContent}
        computeItemKey={itemKey}
        firstItemIndex={first.current.index}
        initialTopMostItemIndex={{ index: 'LAST', align: 'end' }}
        alignToBottom
        followOutput={(atBottom) => (atBottom ? 'auto' : false)}
        atTopStateChange={(top) => {
          atTop.current = top;
          if (top && settled.current) loadOlder(true);
        }}
        atBottomStateChange={(bottom) => {
          if (!bottom || settled.current) return;
          settled.current = true;
          if (atTop.current) loadOlder(true);
        }}
        atTopThreshold={120}
        increaseViewportBy={{ top: 600, bottom: 300 }}
        defaultItemHeight={72}
      />
    </VirtuosoMockContext.Provider>
  );
}
