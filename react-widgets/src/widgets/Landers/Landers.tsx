import { useState, type KeyboardEvent } from 'react';
import type { LanderProfile } from '../../generated/LanderProfile';
import type { LanderProps } from '../../generated/LanderProps';
import type { WidgetProps } from '../../types';
import { Clip, LikePopup, LiveTiles, LoginLine, Photo, ProfileTile, SignupBlock, SignupButton, counted } from './shared';
import './Landers.css';

type Props = WidgetProps<LanderProps>;

function Headline({ props, className = '' }: { props: LanderProps; className?: string }) {
  return (
    <>
      <h1 className={`vw-lander__headline ${className}`}>{props.labels.headline}</h1>
      <p className="vw-lander__intro">{props.labels.intro}</p>
    </>
  );
}

function OnlineCount({ props }: { props: LanderProps }) {
  return (
    <p className="vw-lander__count">
      <span className="vw-lander__dot" aria-hidden="true" /> {counted(props.labels.members_online, props.online_count)}
    </p>
  );
}

/** The member of `/members/{id}/landing2|3`, up front. */
function Featured({ profile, props }: { profile: LanderProfile; props: LanderProps }) {
  return (
    <a className="vw-lander__featured" href={profile.href} data-signup-link="" data-testid="lander-featured">
      <Photo profile={profile} className="vw-lander__featured-photo" eager big />
      <span className="vw-lander__featured-text">
        <strong>
          {profile.name}, {profile.age}
        </strong>
        <span>{profile.place}</span>
        {profile.online ? (
          <span className="vw-lander__online">
            <span className="vw-lander__dot" aria-hidden="true" /> {props.labels.online}
          </span>
        ) : null}
      </span>
    </a>
  );
}

/** `alonetonight`: a night sky, who is awake now, one big button. */
export function AloneTonight({ dispatch: _dispatch, ...props }: Props) {
  return (
    <div className="vw-lander vw-lander--night" data-design="alonetonight">
      <div className="vw-lander__moon" aria-hidden="true" />
      <div className="vw-lander__narrow">
        {props.featured ? <Featured profile={props.featured} props={props} /> : null}
        <Headline props={props} />
        <OnlineCount props={props} />
        <ul className="vw-lander__row">
          {props.profiles.slice(0, 6).map((p, i) => (
            <li key={p.id}>
              <ProfileTile profile={p} className="vw-lander__tile--round" eager={i < 3} online={props.labels.online} />
            </li>
          ))}
        </ul>
        <SignupBlock props={props} className="vw-lander__cta--glow" />
      </div>
      <LikePopup props={props} />
    </div>
  );
}

/** `collagelanding`: portraits pinned up like photos on a wall around the message. */
export function CollageLanding({ dispatch: _dispatch, ...props }: Props) {
  return (
    <div className="vw-lander vw-lander--collage" data-design="collagelanding">
      <ul className="vw-lander__collage" aria-label={props.labels.nearby}>
        {props.profiles.slice(0, 8).map((p, i) => (
          <li key={p.id} style={{ ['--tilt' as string]: `${((i * 37) % 13) - 6}deg` }}>
            <ProfileTile profile={p} className="vw-lander__tile--polaroid" eager={i < 4} />
          </li>
        ))}
      </ul>
      <div className="vw-lander__card">
        <Headline props={props} />
        <SignupBlock props={props} />
      </div>
      <LikePopup props={props} />
    </div>
  );
}

/** `gallery` (and `/members/{id}/landing2`): a clean grid, the button always in reach. */
export function GalleryLanding({ dispatch: _dispatch, ...props }: Props) {
  return (
    <div className="vw-lander vw-lander--gallery" data-design="gallery">
      <div className="vw-lander__wide">
        {props.featured ? <Featured profile={props.featured} props={props} /> : null}
        <Headline props={props} />
        <ul className="vw-lander__grid" aria-label={props.labels.nearby}>
          {props.profiles.slice(0, 12).map((p, i) => (
            <li key={p.id}>
              <ProfileTile profile={p} className="vw-lander__tile--card" eager={i < 4} online={props.labels.online} />
            </li>
          ))}
        </ul>
        <LoginLine props={props} />
      </div>
      <div className="vw-lander__sticky">
        <SignupButton props={props} />
      </div>
      <LikePopup props={props} />
    </div>
  );
}

function Icon({ name }: { name: 'lock' | 'heart' | 'chat' }) {
  const paths = {
    lock: 'M7 10V7a5 5 0 0 1 10 0v3h1.5A1.5 1.5 0 0 1 20 11.5v8a1.5 1.5 0 0 1-1.5 1.5h-13A1.5 1.5 0 0 1 4 19.5v-8A1.5 1.5 0 0 1 5.5 10zm2 0h6V7a3 3 0 0 0-6 0z',
    heart: 'M12 20.5s-7.5-4.6-9.3-9.2C1.5 8 3.5 4.5 7 4.5c2 0 3.6 1.1 5 2.9 1.4-1.8 3-2.9 5-2.9 3.5 0 5.5 3.5 4.3 6.8-1.8 4.6-9.3 9.2-9.3 9.2z',
    chat: 'M4 5.5A2.5 2.5 0 0 1 6.5 3h11A2.5 2.5 0 0 1 20 5.5v8a2.5 2.5 0 0 1-2.5 2.5H10l-4.5 4v-4A2.5 2.5 0 0 1 4 13.5z',
  };
  return (
    <svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true" focusable="false">
      <path fill="currentColor" d={paths[name]} />
    </svg>
  );
}

/** `iconslanding`: three promises with icons, faces, the button. */
export function IconsLanding({ dispatch: _dispatch, ...props }: Props) {
  const l = props.labels;
  const points: [Parameters<typeof Icon>[0]['name'], string, string][] = [
    ['lock', l.point_discreet, l.point_discreet_body],
    ['heart', l.point_match, l.point_match_body],
    ['chat', l.point_chat, l.point_chat_body],
  ];
  return (
    <div className="vw-lander vw-lander--icons" data-design="iconslanding">
      <div className="vw-lander__narrow">
        <Headline props={props} />
        <ul className="vw-lander__faces">
          {props.profiles.slice(0, 5).map((p, i) => (
            <li key={p.id}>
              <ProfileTile profile={p} className="vw-lander__tile--face" eager={i < 5} />
            </li>
          ))}
        </ul>
        <ul className="vw-lander__points">
          {points.map(([icon, title, body]) => (
            <li key={icon}>
              <span className="vw-lander__point-icon">
                <Icon name={icon} />
              </span>
              <span>
                <strong>{title}</strong>
                <span>{body}</span>
              </span>
            </li>
          ))}
        </ul>
        <SignupButton props={props} />
        <LoginLine props={props} />
      </div>
      <LikePopup props={props} />
    </div>
  );
}

/** Where a pin goes on the map: spread over the area, the same for the same member. */
function pinAt(p: LanderProfile, i: number): { left: string; top: string } {
  const x = 12 + ((p.id * 37 + i * 53) % 76);
  const y = 14 + ((p.id * 61 + i * 29) % 68);
  return { left: `${x}%`, top: `${y}%` };
}

/** `maplanding`: a map of the area with members pinned on it. */
export function MapLanding({ dispatch: _dispatch, ...props }: Props) {
  const pins = props.profiles.slice(0, 7);
  return (
    <div className="vw-lander vw-lander--map" data-design="maplanding">
      <div className="vw-lander__narrow">
        <Headline props={props} />
        <div className="vw-lander__map" role="img" aria-label={props.labels.nearby}>
          <span className="vw-lander__you" aria-hidden="true" />
          {pins.map((p, i) => (
            <span key={p.id} className="vw-lander__pin" style={pinAt(p, i)} aria-hidden="true">
              <Photo profile={p} className="vw-lander__pin-photo" eager />
            </span>
          ))}
        </div>
        <ul className="vw-lander__list">
          {pins.slice(0, 4).map((p) => (
            <li key={p.id}>
              <ProfileTile profile={p} className="vw-lander__tile--line" online={props.labels.online} />
            </li>
          ))}
        </ul>
        <SignupButton props={props} />
        <LoginLine props={props} />
      </div>
      <LikePopup props={props} />
    </div>
  );
}

/** `socialnetwork` (and `/members/{id}/landing3`): a feed of posts; every reaction needs an account. */
export function SocialNetwork({ dispatch: _dispatch, ...props }: Props) {
  const l = props.labels;
  const posts = props.profiles.filter((p) => p.photo).slice(0, 4);
  return (
    <div className="vw-lander vw-lander--social" data-design="socialnetwork">
      <div className="vw-lander__feed">
        {props.featured ? <Featured profile={props.featured} props={props} /> : null}
        <Headline props={props} />
        <SignupButton props={props} />
        {posts.map((p, i) => (
          <article key={p.id} className="vw-lander__post" aria-labelledby={`vw-post-${p.id}`}>
            <header>
              <Photo profile={p} className="vw-lander__avatar" eager={i < 2} />
              <span>
                <strong id={`vw-post-${p.id}`}>
                  {p.name}, {p.age}
                </strong>
                <span>{p.place}</span>
              </span>
            </header>
            <Photo profile={p} className="vw-lander__post-photo" eager={i === 0} big />
            <footer>
              <a href={p.href} data-signup-link="">
                {l.react_like}
              </a>
              <a href={p.href} data-signup-link="">
                {l.react_message}
              </a>
            </footer>
          </article>
        ))}
        <LoginLine props={props} />
      </div>
      <LikePopup props={props} />
    </div>
  );
}

/** `transitionsvideolanding`: the clip fills the screen, the message over it. */
export function TransitionsVideo({ dispatch: _dispatch, ...props }: Props) {
  return (
    <div className="vw-lander vw-lander--transitions" data-design="transitionsvideolanding">
      <Clip props={props} className="vw-lander__backdrop" />
      <div className="vw-lander__over">
        <Headline props={props} />
        <OnlineCount props={props} />
        <SignupButton props={props} className="vw-lander__cta--glow" />
        <LoginLine props={props} />
      </div>
      <LikePopup props={props} />
    </div>
  );
}

/** `video`: the clip in a frame beside the message, live-cam tiles under it. */
export function VideoLanding({ dispatch: _dispatch, ...props }: Props) {
  return (
    <div className="vw-lander vw-lander--video" data-design="video">
      <div className="vw-lander__wide vw-lander__split">
        <div className="vw-lander__frame">
          <Clip props={props} className="vw-lander__frame-clip" />
          <span className="vw-lander__badge">{props.labels.live}</span>
        </div>
        <div>
          <Headline props={props} />
          <OnlineCount props={props} />
          <SignupButton props={props} />
          <LoginLine props={props} />
        </div>
      </div>
      <div className="vw-lander__wide">
        <h2 className="vw-lander__sub">{props.labels.live_now}</h2>
        <LiveTiles props={props} count={4} />
      </div>
      <LikePopup props={props} />
    </div>
  );
}

/**
 * `tinderswipe`: a card stack to swipe through. A visitor's likes cannot count yet, so after a
 * few cards (or the first like) the stack asks them to sign up.
 */
export function TinderSwipe({ dispatch: _dispatch, ...props }: Props) {
  const l = props.labels;
  const [index, setIndex] = useState(0);
  const [liked, setLiked] = useState(false);
  const cards = props.profiles.slice(0, 10);
  const card = cards[index];
  const done = liked || index >= Math.min(3, cards.length);
  const decide = (like: boolean) => {
    if (like) setLiked(true);
    setIndex((i) => i + 1);
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowRight') decide(true);
    if (e.key === 'ArrowLeft') decide(false);
  };
  return (
    <div className="vw-lander vw-lander--swipe" data-design="tinderswipe">
      <div className="vw-lander__narrow">
        <Headline props={props} />
        {done || !card ? (
          <div className="vw-lander__swipe-done" data-testid="lander-swipe-done">
            <h2>{l.swipe_done}</h2>
            <SignupButton props={props} />
            <LoginLine props={props} />
          </div>
        ) : (
          <>
            <div className="vw-lander__stack" role="group" tabIndex={0} aria-label={l.swipe_stack} onKeyDown={onKey}>
              {cards[index + 1] ? <Photo profile={cards[index + 1]} className="vw-lander__stack-next" big /> : null}
              <div className="vw-lander__stack-card" data-testid="lander-swipe-card" data-id={card.id} key={card.id}>
                <Photo profile={card} className="vw-lander__stack-photo" eager big />
                <span className="vw-lander__stack-text">
                  <strong>
                    {card.name}, {card.age}
                  </strong>
                  <span>{card.place}</span>
                </span>
              </div>
            </div>
            <div className="vw-lander__stack-buttons">
              <button type="button" className="vw-lander__round vw-lander__round--pass" onClick={() => decide(false)}>
                {l.swipe_pass}
              </button>
              <button type="button" className="vw-lander__round vw-lander__round--like" onClick={() => decide(true)}>
                {l.swipe_like}
              </button>
            </div>
            <SignupBlock props={props} className="vw-lander__cta--quiet" />
          </>
        )}
      </div>
      <LikePopup props={props} />
    </div>
  );
}

/** The designs by the route's name (`/landers/{name}`). */
export const LANDERS = {
  alonetonight: AloneTonight,
  collagelanding: CollageLanding,
  gallery: GalleryLanding,
  iconslanding: IconsLanding,
  maplanding: MapLanding,
  socialnetwork: SocialNetwork,
  transitionsvideolanding: TransitionsVideo,
  video: VideoLanding,
  tinderswipe: TinderSwipe,
} as const;
