import type { ChatPanelLabels } from '../../generated/ChatPanelLabels';

/** Name of the event the chat panel dispatches; detail: `ChatAction` (plus `file` for photos). */
export const CHAT = 'vonk:chat';

/** The browser tells the host it is typing at most this often (the domain's TYPING_THROTTLE_SECS). */
export const TYPING_THROTTLE_MS = 3000;

export { counted, fill } from '../../text';

/**
 * A new client id for one send: a UUID where the browser makes them (secure pages), else 32
 * random hex digits. Both pass the server's check (8–64 letters, digits, `-`, `_`).
 */
export function newClientId(): string {
  const c = globalThis.crypto as Crypto | undefined;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  const bytes = new Uint8Array(16);
  if (c && typeof c.getRandomValues === 'function') {
    c.getRandomValues(bytes);
  } else {
    for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  }
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Characters as the server counts them (code points, not UTF-16 units), of the trimmed text. */
export function countChars(text: string): number {
  return Array.from(text.trim()).length;
}

/** The unread pill's text: the count, capped at 99+. */
export function pill(count: number): string {
  return count > 99 ? '99+' : String(count);
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** A cached `Intl.DateTimeFormat`; an unknown locale falls back to the browser's. */
function format(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let f = formats.get(key);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat(locale || undefined, options);
    } catch {
      f = new Intl.DateTimeFormat(undefined, options);
    }
    formats.set(key, f);
  }
  return f;
}

const DAY_MS = 86_400_000;

function startOfDay(ms: number): number {
  const d = new Date(ms);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

/** Whole calendar days between `at` (unix seconds) and now; 0 is today. */
function daysAgo(at: number, nowMs: number): number {
  return Math.round((startOfDay(nowMs) - startOfDay(at * 1000)) / DAY_MS);
}

/** The local calendar day of `at` (unix seconds), to compare two messages. */
export function dayOf(at: number): number {
  return startOfDay(at * 1000);
}

/** A message's time of day, e.g. "14:05". */
export function timeOfDay(at: number, locale: string): string {
  return format(locale, { hour: '2-digit', minute: '2-digit' }).format(at * 1000);
}

/** A day separator: today, yesterday, or the date (with the year when it is not this year's). */
export function dayLabel(at: number, nowMs: number, locale: string, labels: ChatPanelLabels): string {
  const ago = daysAgo(at, nowMs);
  if (ago === 0) return labels.today;
  if (ago === 1) return labels.yesterday;
  const sameYear = new Date(at * 1000).getFullYear() === new Date(nowMs).getFullYear();
  return format(locale, { weekday: 'long', day: 'numeric', month: 'long', ...(sameYear ? {} : { year: 'numeric' }) }).format(at * 1000);
}

/** The list's short time: a time today, yesterday, a weekday this week, else a date. */
export function listTime(at: number, nowMs: number, locale: string, labels: ChatPanelLabels): string {
  if (at <= 0) return '';
  const ago = daysAgo(at, nowMs);
  if (ago <= 0) return timeOfDay(at, locale);
  if (ago === 1) return labels.yesterday;
  if (ago < 7) return format(locale, { weekday: 'short' }).format(at * 1000);
  const sameYear = new Date(at * 1000).getFullYear() === new Date(nowMs).getFullYear();
  return format(locale, sameYear ? { day: 'numeric', month: 'short' } : { day: 'numeric', month: 'short', year: 'numeric' }).format(at * 1000);
}

/** The full date and time, for a `<time>`'s tooltip. */
export function fullTime(at: number, locale: string): string {
  return format(locale, { dateStyle: 'full', timeStyle: 'short' }).format(at * 1000);
}

/** An ISO timestamp for `<time dateTime>`. */
export function isoTime(at: number): string {
  return new Date(at * 1000).toISOString();
}
