import type { ReactNode } from 'react';
import type { Gift } from '../../generated/Gift';

/** The eight gifts, drawn on a 64×64 grid in flat colours (no ids, so any number can share a page). */
const DRAWINGS: Record<Gift, ReactNode> = {
  rose: (
    <>
      <path d="M32 34c-1 10 1.5 17-1 26" fill="none" stroke="#2f8f55" strokeWidth="3" strokeLinecap="round" />
      <path d="M31.5 46c-7-5-12.5-4-15-.5 6 3.5 11 3 15 .5z" fill="#3fae6a" />
      <path d="M32 51c6.5-5.5 12-5 14.5-1.5-6 3.5-10.5 3.5-14.5 1.5z" fill="#2f8f55" />
      <path d="M19 21c0-10 8-14.5 13-10.5 5-4 13 .5 13 10.5 0 9.5-6 15-13 15s-13-5.5-13-15z" fill="#d7263d" />
      <path d="M19.5 23c.5 7 5 12.5 12.5 13-6-3-9.5-7.5-12.5-13z" fill="#ff5a6e" />
      <path d="M25 19.5c1-6 7.5-7 9.5-3 4-1 6.5 4 3.5 7.5-2.5 4.5-9 4.5-11.5 1-1.5-1.5-1.8-3.5-1.5-5.5z" fill="#b3152c" />
      <path d="M29.5 20c.8-3 4.8-2.6 4.6.3-.2 2.6-3.5 3.4-4.6 1.2" fill="none" stroke="#ff8a99" strokeWidth="1.6" strokeLinecap="round" />
      <path d="M24 12.5c2-3 5.5-4 8-2" fill="none" stroke="#ff8a99" strokeWidth="1.6" strokeLinecap="round" />
    </>
  ),
  heart: (
    <>
      <path d="M32 56C14 44 6 34 6 23 6 14 13 8 21 8c5 0 9 3 11 7 2-4 6-7 11-7 8 0 15 6 15 15 0 11-8 21-26 33z" fill="#e0263a" />
      <path d="M53 11c2.8 2.7 5 6.7 5 12 0 11-8 21-26 33l-3.5-2.5C44 43 55 28 53 11z" fill="#b3152c" />
      <ellipse cx="19" cy="19" rx="6.5" ry="4" transform="rotate(-35 19 19)" fill="#fff" opacity=".6" />
      <circle cx="27" cy="14.5" r="1.8" fill="#fff" opacity=".6" />
    </>
  ),
  champagne: (
    <>
      <g transform="rotate(-14 20 32)">
        <path d="M13 8h14l-2.2 21c-.6 4.5-3.2 6.5-4.8 6.5s-4.2-2-4.8-6.5z" fill="#fdf6dc" stroke="#caa22c" strokeWidth="1.5" strokeLinejoin="round" />
        <path d="M14.2 16h11.6l-1.6 12.8c-.5 3.6-2.6 5.2-4.2 5.2s-3.7-1.6-4.2-5.2z" fill="#f5c542" />
        <path d="M20 35.5v14" stroke="#caa22c" strokeWidth="2" strokeLinecap="round" />
        <ellipse cx="20" cy="51" rx="6.5" ry="2" fill="#caa22c" />
        <circle cx="18" cy="25" r="1.2" fill="#fff" />
        <circle cx="21.5" cy="20" r="1" fill="#fff" />
      </g>
      <g transform="rotate(14 44 32)">
        <path d="M37 8h14l-2.2 21c-.6 4.5-3.2 6.5-4.8 6.5s-4.2-2-4.8-6.5z" fill="#fdf6dc" stroke="#caa22c" strokeWidth="1.5" strokeLinejoin="round" />
        <path d="M38.2 16h11.6l-1.6 12.8c-.5 3.6-2.6 5.2-4.2 5.2s-3.7-1.6-4.2-5.2z" fill="#f5c542" />
        <path d="M44 35.5v14" stroke="#caa22c" strokeWidth="2" strokeLinecap="round" />
        <ellipse cx="44" cy="51" rx="6.5" ry="2" fill="#caa22c" />
        <circle cx="45" cy="24" r="1.2" fill="#fff" />
        <circle cx="42" cy="19.5" r="1" fill="#fff" />
      </g>
      <path d="M32 2.5v5M29.5 5h5M26.5 3.5l1.5 2M37.5 3.5l-1.5 2" stroke="#e0263a" strokeWidth="1.8" strokeLinecap="round" />
      <circle cx="32" cy="12" r="1.6" fill="#f5c542" />
      <circle cx="29" cy="15.5" r="1.1" fill="#f5c542" />
      <circle cx="35" cy="16" r="1.1" fill="#f5c542" />
    </>
  ),
  teddy: (
    <>
      <circle cx="18" cy="15" r="8" fill="#9b5f2b" />
      <circle cx="46" cy="15" r="8" fill="#9b5f2b" />
      <circle cx="18" cy="15" r="4" fill="#e3a96b" />
      <circle cx="46" cy="15" r="4" fill="#e3a96b" />
      <ellipse cx="18.5" cy="46" rx="5" ry="7.5" transform="rotate(32 18.5 46)" fill="#9b5f2b" />
      <ellipse cx="45.5" cy="46" rx="5" ry="7.5" transform="rotate(-32 45.5 46)" fill="#9b5f2b" />
      <ellipse cx="32" cy="49" rx="13.5" ry="12" fill="#b8743a" />
      <ellipse cx="32" cy="51.5" rx="8" ry="7.5" fill="#f0c890" />
      <ellipse cx="22" cy="59.5" rx="6.5" ry="3.6" fill="#9b5f2b" />
      <ellipse cx="42" cy="59.5" rx="6.5" ry="3.6" fill="#9b5f2b" />
      <circle cx="32" cy="26" r="15" fill="#b8743a" />
      <ellipse cx="32" cy="31.5" rx="7.5" ry="5.8" fill="#f0c890" />
      <ellipse cx="32" cy="28.8" rx="2.8" ry="2.1" fill="#3b2314" />
      <path d="M32 30.8v2M29.3 33.2q2.7 2 5.4 0" fill="none" stroke="#3b2314" strokeWidth="1.3" strokeLinecap="round" />
      <circle cx="25.5" cy="23" r="2" fill="#3b2314" />
      <circle cx="38.5" cy="23" r="2" fill="#3b2314" />
      <circle cx="26.1" cy="22.4" r=".6" fill="#fff" />
      <circle cx="39.1" cy="22.4" r=".6" fill="#fff" />
      <path d="M32 41.5l-7.5-4v8zM32 41.5l7.5-4v8z" fill="#e0263a" />
      <circle cx="32" cy="41.5" r="2.3" fill="#b3152c" />
      <path
        d="M32 55.5c-3.5-2.4-5-4.3-5-6.3 0-1.7 1.3-2.9 2.8-2.9 1 0 1.8.6 2.2 1.4.4-.8 1.2-1.4 2.2-1.4 1.5 0 2.8 1.2 2.8 2.9 0 2-1.5 3.9-5 6.3z"
        fill="#e0263a"
      />
    </>
  ),
  chocolates: (
    <>
      <path d="M32 58C13 46 4 35 4 23 4 13 12 6 21 6c5 0 9 2.6 11 6.5C34 8.6 38 6 43 6c9 0 17 7 17 17 0 12-9 23-28 35z" fill="#c2185b" />
      <path d="M32 51.5C18 42 11 33.5 11 24c0-6.5 5-11.5 11-11.5 4.5 0 8 2.8 10 6.5 2-3.7 5.5-6.5 10-6.5 6 0 11 5 11 11.5 0 9.5-7 18-21 27.5z" fill="#f6d7a7" />
      <circle cx="22" cy="23" r="5.6" fill="#5a2d1a" />
      <circle cx="42" cy="23" r="5.6" fill="#7b4326" />
      <circle cx="32" cy="31" r="5.6" fill="#3e1f12" />
      <circle cx="24.5" cy="37" r="5" fill="#7b4326" />
      <circle cx="39.5" cy="37" r="5" fill="#5a2d1a" />
      <circle cx="32" cy="44.5" r="4.4" fill="#7b4326" />
      <path d="M18.5 22c2-1.5 5-1.5 7 0M28.5 30c2-1.5 5-1.5 7 0M36 36c2-1.5 5-1.5 7 0" fill="none" stroke="#f3e3c3" strokeWidth="1.3" strokeLinecap="round" />
      <path d="M39.5 23.5l5-1M22 37.5l5-1" stroke="#e88fb0" strokeWidth="1.4" strokeLinecap="round" />
      <circle cx="20" cy="21" r="1.3" fill="#fff" opacity=".5" />
      <circle cx="40" cy="21" r="1.3" fill="#fff" opacity=".5" />
      <circle cx="30" cy="29" r="1.3" fill="#fff" opacity=".5" />
      <circle cx="30.5" cy="43" r="1.1" fill="#fff" opacity=".5" />
      <ellipse cx="14" cy="15" rx="4" ry="2.4" transform="rotate(-40 14 15)" fill="#fff" opacity=".35" />
    </>
  ),
  kiss: (
    <>
      <path d="M7 31c6-8.5 14.5-13 21-9 1.6 1 2.8 1.8 4 1.8s2.4-.8 4-1.8c6.5-4 15 .5 21 9-8 1.4-17 2.2-25 2.2S15 32.4 7 31z" fill="#e0263a" />
      <path d="M7 31c8 1.4 17 2.2 25 2.2s17-.8 25-2.2c-5.5 11.5-14 16.5-25 16.5S12.5 42.5 7 31z" fill="#c81d33" />
      <path d="M7 31c8 1.4 17 2.2 25 2.2S49 32.4 57 31" fill="none" stroke="#8b0d1a" strokeWidth="1.8" strokeLinecap="round" />
      <ellipse cx="38" cy="40" rx="6" ry="2.2" fill="#fff" opacity=".45" />
      <ellipse cx="22" cy="26.5" rx="3.5" ry="1.5" transform="rotate(-20 22 26.5)" fill="#fff" opacity=".45" />
      <path
        d="M50 14.5c-2.7-1.8-3.9-3.3-3.9-4.9 0-1.3 1-2.3 2.2-2.3.8 0 1.4.5 1.7 1.1.3-.6.9-1.1 1.7-1.1 1.2 0 2.2 1 2.2 2.3 0 1.6-1.2 3.1-3.9 4.9z"
        fill="#ff6f91"
      />
      <path d="M12 56c-2-1.4-3-2.6-3-3.8 0-1 .8-1.8 1.7-1.8.6 0 1.1.4 1.3.9.2-.5.7-.9 1.3-.9.9 0 1.7.8 1.7 1.8 0 1.2-1 2.4-3 3.8z" fill="#ff6f91" />
    </>
  ),
  cocktail: (
    <>
      <path d="M8 13h48L32 37z" fill="#e8f7ff" stroke="#7fb8d6" strokeWidth="1.6" strokeLinejoin="round" />
      <path d="M13.5 18.5h37L32 37z" fill="#ff5c8a" />
      <path d="M18 18.5h10L32 37z" fill="#ff8fb0" opacity=".7" />
      <path d="M32 37v16" stroke="#7fb8d6" strokeWidth="2.4" strokeLinecap="round" />
      <ellipse cx="32" cy="55" rx="10" ry="2.6" fill="#7fb8d6" />
      <circle cx="50" cy="13" r="7" fill="#8bc34a" />
      <circle cx="50" cy="13" r="5.4" fill="#d4ee9f" />
      <path d="M50 13V7.6M50 13l4.6 2.7M50 13l-4.6 2.7M50 13l4.6-2.7M50 13l-4.6-2.7M50 13v5.4" stroke="#8bc34a" strokeWidth="1" />
      <path d="M24 5c-1 4 0 8 2 12" fill="none" stroke="#2f8f55" strokeWidth="1.6" strokeLinecap="round" />
      <circle cx="26.5" cy="19" r="4.2" fill="#d7263d" />
      <circle cx="25.2" cy="17.6" r="1.2" fill="#fff" opacity=".6" />
    </>
  ),
  star: (
    <>
      <path
        d="M32 6l6.6 17.2 18.4.9-14.4 11.5 4.9 17.8L32 43.4 16.5 53.4l4.9-17.8L7 24.1l18.4-.9z"
        fill="#ffc83d"
        stroke="#f29f05"
        strokeWidth="2"
        strokeLinejoin="round"
      />
      <path d="M32 33V6l6.6 17.2 18.4.9-14.4 11.5 4.9 17.8L32 43.4z" fill="#f5a623" opacity=".45" />
      <ellipse cx="25" cy="26" rx="4" ry="2.2" transform="rotate(-30 25 26)" fill="#fff" opacity=".6" />
      <path d="M54 4l1.3 3.7L59 9l-3.7 1.3L54 14l-1.3-3.7L49 9l3.7-1.3z" fill="#ff9f1c" />
      <path d="M10 50l1 2.8 2.8 1-2.8 1-1 2.8-1-2.8-2.8-1 2.8-1z" fill="#ff9f1c" />
    </>
  ),
};

/**
 * A gift's picture. With a label it is an image with that accessible name; without, decoration
 * (when the label is shown as text beside it).
 */
export function GiftPicture({ gift, label, size = 56, className }: { gift: Gift; label?: string; size?: number; className?: string }) {
  return (
    <svg
      className={className}
      viewBox="0 0 64 64"
      width={size}
      height={size}
      data-gift={gift}
      focusable="false"
      {...(label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true })}
    >
      {DRAWINGS[gift] ?? DRAWINGS.heart}
    </svg>
  );
}

/** The site's fictional mark: its icon when it has one, else a drawn theatre mask in a badge. */
export function FictionalMark({ icon, label }: { icon: string; label: string }) {
  if (icon) return <img className="vonk-chat__fictional" src={icon} alt={label} title={label} />;
  return (
    <svg className="vonk-chat__fictional" viewBox="0 0 24 24" role="img" aria-label={label} focusable="false">
      <title>{label}</title>
      <circle cx="12" cy="12" r="12" fill="#6b4ce6" />
      <path d="M5.5 7c0-1 .9-1.6 1.9-1.2 2.7 1 6.5 1 9.2 0 1-.4 1.9.2 1.9 1.2 0 6.3-2.8 11-6.5 11S5.5 13.3 5.5 7z" fill="#fff" />
      <ellipse cx="9.3" cy="9.6" rx="1.5" ry="1" fill="#6b4ce6" />
      <ellipse cx="14.7" cy="9.6" rx="1.5" ry="1" fill="#6b4ce6" />
      <path d="M9.3 13.2q2.7 2.6 5.4 0" fill="none" stroke="#6b4ce6" strokeWidth="1.3" strokeLinecap="round" />
    </svg>
  );
}
