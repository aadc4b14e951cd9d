import { useEffect, useRef, useState } from 'react';
import type { LanderProfile } from '../../generated/LanderProfile';
import type { LanderProps } from '../../generated/LanderProps';
import { counted, fill } from '../../text';

export { counted, fill } from '../../text';

/**
 * The member's photo; `big` takes the larger one where the design shows it large. Eager photos are
 * the first screen's, so they are fetched first. The server draws the same element
 * (`app/src/features/landers/designs.rs`).
 */
export function Photo({ profile, className, eager = false, big = false }: { profile: LanderProfile; className: string; eager?: boolean; big?: boolean }) {
  const src = big ? (profile.large ?? profile.photo) : profile.photo;
  return src ? (
    <img
      className={className}
      src={src}
      alt=""
      loading={eager ? 'eager' : 'lazy'}
      fetchPriority={eager ? 'high' : undefined}
      decoding="async"
      draggable={false}
      width={big ? 480 : 240}
      height={big ? 640 : 240}
    />
  ) : (
    <span className={`${className} vw-lander__initial`} aria-hidden="true">
      {profile.name.slice(0, 1).toUpperCase()}
    </span>
  );
}

/** The main way on: a link to signup that opens the signup modal on desktop. */
export function SignupButton({ props, className = '', testId = 'lander-signup' }: { props: LanderProps; className?: string; testId?: string }) {
  return (
    <a className={`vw-lander__cta ${className}`} href={props.signup_href} data-signup-link="" data-testid={testId}>
      {props.labels.cta}
    </a>
  );
}

/** The end of most designs: the signup button, "free, discreet", the login line. */
export function SignupBlock({ props, className }: { props: LanderProps; className?: string }) {
  return (
    <>
      <SignupButton props={props} className={className} />
      <p className="vw-lander__free">{props.labels.free}</p>
      <LoginLine props={props} />
    </>
  );
}

export function LoginLine({ props }: { props: LanderProps }) {
  return (
    <p className="vw-lander__login">
      {props.labels.have_account} <a href={props.login_href}>{props.labels.login}</a>
    </p>
  );
}

/** "Sanne, 29" with the place under it; the whole tile leads to signup about that member. */
export function ProfileTile({ profile, className, eager, online }: { profile: LanderProfile; className: string; eager?: boolean; online?: string }) {
  return (
    <a className={`vw-lander__tile ${className}`} href={profile.href} data-signup-link="" data-testid="lander-profile">
      <Photo profile={profile} className="vw-lander__tile-photo" eager={eager} />
      <span className="vw-lander__tile-text">
        <span className="vw-lander__tile-name">
          {profile.name}, {profile.age}
        </span>
        <span className="vw-lander__tile-place">{profile.place}</span>
      </span>
      {online && profile.online ? (
        <span className="vw-lander__online">
          <span className="vw-lander__dot" aria-hidden="true" /> {online}
        </span>
      ) : null}
    </a>
  );
}

/**
 * The like popup of SPEC §2 (`?t=N`): after N seconds someone from the page "likes" the visitor;
 * the button leads to signup. The parameter leaves the address once the popup has shown.
 */
export function LikePopup({ props }: { props: LanderProps }) {
  const [shown, setShown] = useState(false);
  const button = useRef<HTMLAnchorElement>(null);
  const liker = props.featured ?? props.profiles[0];
  useEffect(() => {
    if (props.like_after == null || !liker) return;
    const timer = window.setTimeout(() => {
      setShown(true);
      const url = new URL(window.location.href);
      url.searchParams.delete('t');
      window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
    }, props.like_after * 1000);
    return () => window.clearTimeout(timer);
  }, [props.like_after, liker]);
  useEffect(() => {
    if (shown) button.current?.focus();
  }, [shown]);
  if (!shown || !liker) return null;
  const close = () => setShown(false);
  return (
    <div
      className="vw-lander__like"
      role="dialog"
      aria-modal="true"
      aria-labelledby="vw-lander-like-title"
      data-testid="like-popup"
      onKeyDown={(e) => e.key === 'Escape' && close()}
    >
      <div className="vw-lander__like-body">
        <Photo profile={liker} className="vw-lander__like-photo" eager big />
        <h2 id="vw-lander-like-title">{fill(props.labels.liked_you, { name: liker.name })}</h2>
        <p>
          {liker.age}, {liker.place}
        </p>
        <a ref={button} className="vw-lander__cta" href={liker.href} data-signup-link="" data-testid="like-popup-view" onClick={close}>
          {props.labels.view_profile}
        </a>
        <button type="button" className="vw-lander__ghost" onClick={close} data-testid="like-popup-close">
          {props.labels.close}
        </button>
      </div>
    </div>
  );
}

/**
 * Whether the clip may load: not for visitors who ask for less motion, save data or are on a 2G
 * connection (they keep the poster).
 */
export function clipAllowed(): boolean {
  if (typeof window === 'undefined') return false;
  if (window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return false;
  const connection = (navigator as Navigator & { connection?: { saveData?: boolean; effectiveType?: string } }).connection;
  if (connection?.saveData) return false;
  return !['slow-2g', '2g'].includes(connection?.effectiveType ?? '');
}

/**
 * The short looping clip (muted, inline). Its poster shows first, as the server sent it; the clip
 * itself loads once the page has loaded and the browser is idle, so it never competes with the
 * page for the connection. Without a clip, the portraits fade into one another.
 */
export function Clip({ props, className }: { props: LanderProps; className: string }) {
  const [play, setPlay] = useState(false);
  const clip = props.clip;
  useEffect(() => {
    if (!clip || !clipAllowed()) return;
    let idle = 0;
    const start = () => {
      const later = window.requestIdleCallback ?? ((f: () => void) => window.setTimeout(f, 200));
      idle = later(() => setPlay(true));
    };
    if (document.readyState === 'complete') start();
    else window.addEventListener('load', start, { once: true });
    return () => {
      window.removeEventListener('load', start);
      (window.cancelIdleCallback ?? window.clearTimeout)(idle);
    };
  }, [clip]);
  if (clip) {
    return (
      <video
        className={className}
        src={play ? clip.src : undefined}
        poster={clip.poster ?? undefined}
        autoPlay
        muted
        loop
        playsInline
        preload="none"
        aria-hidden="true"
        data-testid="lander-clip"
      />
    );
  }
  const slides = props.profiles.filter((p) => p.large ?? p.photo).slice(0, 4);
  return (
    <div className={`${className} vw-lander__slides`} aria-hidden="true" data-testid="lander-slides">
      {slides.map((p, i) => (
        <img key={p.id} src={p.large ?? p.photo ?? ''} alt="" loading={i === 0 ? 'eager' : 'lazy'} style={{ animationDelay: `${i * 3}s` }} />
      ))}
    </div>
  );
}

/** Live-cam style tiles: a moving picture feel, a LIVE badge and how many watch. */
export function LiveTiles({ props, count = 4 }: { props: LanderProps; count?: number }) {
  const live = props.profiles.slice(0, count);
  return (
    <ul className="vw-lander__live" aria-label={props.labels.live_now}>
      {live.map((p, i) => (
        <li key={p.id}>
          <a className="vw-lander__cam" href={p.href} data-signup-link="" data-testid="lander-live">
            <Photo profile={p} className="vw-lander__cam-photo" big />
            <span className="vw-lander__badge">{props.labels.live}</span>
            <span className="vw-lander__cam-name">
              {p.name}, {p.age}
            </span>
            <span className="vw-lander__cam-watch">{counted(props.labels.watching, 12 + ((p.id * 7 + i * 13) % 80))}</span>
          </a>
        </li>
      ))}
    </ul>
  );
}
