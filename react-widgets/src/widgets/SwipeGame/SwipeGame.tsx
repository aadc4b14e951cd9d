import { useCallback, useEffect, useRef, useState, type CSSProperties, type KeyboardEvent, type PointerEvent } from 'react';
import type { SwipeCard } from '../../generated/SwipeCard';
import type { SwipeDecision } from '../../generated/SwipeDecision';
import type { SwipeGameProps } from '../../generated/SwipeGameProps';
import type { WidgetProps } from '../../types';
import { counted, fill } from '../../text';
import './SwipeGame.css';

/** Name of the event dispatched for every like or pass; detail: `SwipeDecision`. */
export const SWIPE = 'vonk:swipe';

/** How far (px) a card must travel to count as a decision. */
const THRESHOLD = 110;
/** How long the card takes to fly off (ms); the next one is ready underneath. */
const FLY_MS = 260;

interface Flying {
  card: SwipeCard;
  like: boolean;
  /** Where the drag left the card, so it flies on from there. */
  x: number;
  y: number;
}

/** Hours and minutes until `at` (unix seconds), e.g. "3:05"; never negative. */
export function formatWait(at: number, nowMs: number): string {
  const minutes = Math.max(0, Math.ceil((at * 1000 - nowMs) / 60000));
  return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;
}

function Heart() {
  return (
    <svg viewBox="0 0 24 24" width="30" height="30" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M12 20.5s-7.5-4.6-9.3-9.2C1.5 8 3.5 4.5 7 4.5c2 0 3.6 1.1 5 2.9 1.4-1.8 3-2.9 5-2.9 3.5 0 5.5 3.5 4.3 6.8-1.8 4.6-9.3 9.2-9.3 9.2z"
      />
    </svg>
  );
}

function Cross() {
  return (
    <svg viewBox="0 0 24 24" width="26" height="26" aria-hidden="true" focusable="false">
      <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}

/** A card's photo; the top card's is the page's largest image, so it is fetched first. */
function Photo({ card, className, top = false }: { card: SwipeCard; className: string; top?: boolean }) {
  return card.photo ? (
    <img
      className={className}
      src={card.photo}
      alt=""
      draggable={false}
      loading={top ? 'eager' : 'lazy'}
      fetchPriority={top ? 'high' : undefined}
      decoding="async"
      width={480}
      height={640}
    />
  ) : (
    <span className={`${className} vw-swipe__initial`} aria-hidden="true">
      {card.name.slice(0, 1).toUpperCase()}
    </span>
  );
}

/**
 * The swipe game: a stack of profile cards. Drag or swipe the top card right to like and left to
 * pass (mouse, touch and pen through pointer events), or use the buttons or the arrow keys. While
 * dragging, the card follows the pointer through a transform set outside React, so it stays
 * smooth on phones. Free members see how many likes remain, then a 'come back' state.
 */
export function SwipeGame({ cards, remaining, next_at, matched, labels, dispatch }: WidgetProps<SwipeGameProps>) {
  const [index, setIndex] = useState(0);
  // Cards on their way out, drawn above the stack while the next card is already playable.
  const [flying, setFlying] = useState<Flying[]>([]);
  const [dismissedMatch, setDismissedMatch] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const cardRef = useRef<HTMLDivElement>(null);
  const drag = useRef<{ x: number; y: number; dx: number; dy: number; id: number } | null>(null);
  const frame = useRef(0);

  const usedUp = remaining !== null && remaining <= 0;
  const card = cards[index];

  useEffect(() => {
    if (!usedUp) return;
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, [usedUp]);

  const paint = useCallback(() => {
    frame.current = 0;
    const el = cardRef.current;
    const d = drag.current;
    if (!el || !d) return;
    el.style.transform = `translate3d(${d.dx}px, ${d.dy * 0.3}px, 0) rotate(${d.dx / 14}deg)`;
    el.dataset.hint = d.dx > THRESHOLD / 2 ? 'like' : d.dx < -THRESHOLD / 2 ? 'pass' : '';
  }, []);

  const decide = useCallback(
    (like: boolean, from = { x: 0, y: 0 }) => {
      if (!card || (like && usedUp)) return;
      const detail: SwipeDecision = { id: card.id, like };
      dispatch(SWIPE, detail);
      const entry: Flying = { card, like, x: from.x, y: from.y };
      setFlying((f) => [...f, entry]);
      setIndex((i) => i + 1);
      window.setTimeout(() => setFlying((f) => f.filter((e) => e !== entry)), FLY_MS);
    },
    [card, usedUp, dispatch],
  );

  // A new top card starts centred.
  useEffect(() => {
    const el = cardRef.current;
    if (el) {
      el.style.transform = '';
      el.dataset.hint = '';
    }
  }, [index]);

  function onPointerDown(event: PointerEvent<HTMLDivElement>) {
    if (event.button > 0) return;
    event.currentTarget.setPointerCapture?.(event.pointerId);
    drag.current = { x: event.clientX, y: event.clientY, dx: 0, dy: 0, id: event.pointerId };
    event.currentTarget.classList.add('vw-swipe__card--dragging');
  }

  function onPointerMove(event: PointerEvent<HTMLDivElement>) {
    const d = drag.current;
    if (!d || d.id !== event.pointerId) return;
    d.dx = event.clientX - d.x;
    d.dy = event.clientY - d.y;
    if (!frame.current) frame.current = requestAnimationFrame(paint);
  }

  function onPointerUp(event: PointerEvent<HTMLDivElement>) {
    const d = drag.current;
    if (!d || d.id !== event.pointerId) return;
    drag.current = null;
    event.currentTarget.classList.remove('vw-swipe__card--dragging');
    if (d.dx > THRESHOLD && !usedUp) {
      decide(true, { x: d.dx, y: d.dy * 0.3 });
    } else if (d.dx < -THRESHOLD) {
      decide(false, { x: d.dx, y: d.dy * 0.3 });
    } else {
      // Not far enough: back to the middle.
      event.currentTarget.style.transform = '';
      event.currentTarget.dataset.hint = '';
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === 'ArrowRight') {
      event.preventDefault();
      decide(true);
    } else if (event.key === 'ArrowLeft') {
      event.preventDefault();
      decide(false);
    }
  }

  const showMatch = matched && matched.id !== dismissedMatch;

  return (
    <div className="vw-swipe" data-testid="swipe-game">
      {remaining !== null && !usedUp && (
        <p className="vw-swipe__remaining" data-testid="swipe-remaining">
          {counted(labels.remaining, remaining)}
        </p>
      )}
      {usedUp ? (
        <div className="vw-swipe__done" role="status" data-testid="swipe-come-back">
          <Heart />
          <h2>{labels.used_up}</h2>
          {next_at !== null && <p>{fill(labels.come_back, { time: formatWait(next_at, now) })}</p>}
          <a className="vw-swipe__link" href="/members">
            {labels.search}
          </a>
        </div>
      ) : card ? (
        <div className="vw-swipe__stage" role="group" aria-label={labels.title} tabIndex={0} onKeyDown={onKeyDown} aria-describedby="vw-swipe-keys">
          {cards[index + 1] && (
            <div className="vw-swipe__card vw-swipe__card--next" aria-hidden="true">
              <Photo card={cards[index + 1]} className="vw-swipe__photo" />
            </div>
          )}
          <div
            key={card.id}
            ref={cardRef}
            className="vw-swipe__card"
            data-testid="swipe-card"
            data-id={card.id}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
            onPointerCancel={onPointerUp}
          >
            <Photo card={card} className="vw-swipe__photo" top />
            <span className="vw-swipe__stamp vw-swipe__stamp--like" aria-hidden="true">
              {labels.like}
            </span>
            <span className="vw-swipe__stamp vw-swipe__stamp--pass" aria-hidden="true">
              {labels.pass}
            </span>
            <div className="vw-swipe__info">
              <h2 className="vw-swipe__name">
                {card.name}, {card.age}
              </h2>
              <p className="vw-swipe__place">{card.place}</p>
              <a className="vw-swipe__link vw-swipe__link--light" href={card.href}>
                {labels.view_profile}
              </a>
            </div>
          </div>
          {flying.map((f) => (
            <div
              key={`fly-${f.card.id}`}
              className={`vw-swipe__card vw-swipe__card--${f.like ? 'like' : 'pass'}`}
              style={{ '--from-x': `${f.x}px`, '--from-y': `${f.y}px`, '--from-r': `${f.x / 14}deg` } as CSSProperties}
              aria-hidden="true"
            >
              <Photo card={f.card} className="vw-swipe__photo" />
              <span className={`vw-swipe__stamp vw-swipe__stamp--${f.like ? 'like' : 'pass'}`}>{f.like ? labels.like : labels.pass}</span>
            </div>
          ))}
          <p id="vw-swipe-keys" className="vw-swipe__keys">
            {labels.keys}
          </p>
        </div>
      ) : (
        <div className="vw-swipe__done" role="status" data-testid="swipe-empty">
          <p>{labels.empty}</p>
          <a className="vw-swipe__link" href="/members">
            {labels.search}
          </a>
        </div>
      )}
      {card && !usedUp && (
        <div className="vw-swipe__buttons">
          <button type="button" className="vw-swipe__button vw-swipe__button--pass" aria-label={labels.pass} onClick={() => decide(false)}>
            <Cross />
          </button>
          <button type="button" className="vw-swipe__button vw-swipe__button--like" aria-label={labels.like} onClick={() => decide(true)}>
            <Heart />
          </button>
        </div>
      )}
      {showMatch && (
        <div className="vw-swipe__match" role="dialog" aria-modal="true" aria-labelledby="vw-swipe-match-title" data-testid="swipe-match">
          <Photo card={matched} className="vw-swipe__match-photo" />
          <h2 id="vw-swipe-match-title">{labels.match_title}</h2>
          <p>{fill(labels.match_body, { name: matched.name })}</p>
          <button type="button" className="vw-swipe__match-close" onClick={() => setDismissedMatch(matched.id)} autoFocus>
            {labels.match_close}
          </button>
        </div>
      )}
    </div>
  );
}
