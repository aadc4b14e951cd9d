import type { ReactNode } from 'react';

/** Line icons on a 24×24 grid in the current colour; always decoration (their button has the name). */
function Icon({ children, size = 22 }: { children: ReactNode; size?: number }) {
  return (
    <svg
      className="vonk-chat__icon"
      viewBox="0 0 24 24"
      width={size}
      height={size}
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}

export const BackIcon = () => (
  <Icon>
    <path d="M15 5l-7 7 7 7" />
  </Icon>
);
export const SendIcon = () => (
  <Icon size={20}>
    <path d="M4 12l16-8-6 17-3-7z" fill="currentColor" fillOpacity=".18" />
    <path d="M11 14l9-10" />
  </Icon>
);
export const PhotoIcon = () => (
  <Icon>
    <rect x="3" y="5" width="18" height="14" rx="3" />
    <circle cx="9" cy="10" r="1.8" />
    <path d="M4 17l5-4.5 3.5 3 3-2.5L21 17" />
  </Icon>
);
export const GiftIcon = () => (
  <Icon>
    <rect x="3.5" y="9" width="17" height="11" rx="2" />
    <path d="M2.5 9h19M12 9v11M12 9c-2.5 0-5-1-5-3s2.5-2.5 5 3zM12 9c2.5 0 5-1 5-3s-2.5-2.5-5 3z" />
  </Icon>
);
export const SparkIcon = () => (
  <Icon>
    <path d="M5 5h14a2 2 0 012 2v8a2 2 0 01-2 2h-7l-5 4v-4H5a2 2 0 01-2-2V7a2 2 0 012-2z" />
    <path d="M12 8.2l.9 2 2 .9-2 .9-.9 2-.9-2-2-.9 2-.9z" fill="currentColor" />
  </Icon>
);
export const ProfileIcon = () => (
  <Icon>
    <circle cx="12" cy="8.5" r="4" />
    <path d="M4.5 20c1.2-3.8 4-5.5 7.5-5.5s6.3 1.7 7.5 5.5" />
  </Icon>
);
export const BlockIcon = () => (
  <Icon>
    <circle cx="12" cy="12" r="8.5" />
    <path d="M6 6l12 12" />
  </Icon>
);
export const FlagIcon = () => (
  <Icon>
    <path d="M5 21V4M5 4h11l-2 4 2 4H5" />
  </Icon>
);
export const TrashIcon = () => (
  <Icon>
    <path d="M4 7h16M10 11v6M14 11v6M6 7l1 12a2 2 0 002 2h6a2 2 0 002-2l1-12M9 7V4.5h6V7" />
  </Icon>
);
export const CloseIcon = () => (
  <Icon size={20}>
    <path d="M6 6l12 12M18 6L6 18" />
  </Icon>
);
export const RetryIcon = () => (
  <Icon size={16}>
    <path d="M4 12a8 8 0 0114-5.3L20 9M20 4v5h-5M20 12a8 8 0 01-14 5.3L4 15M4 20v-5h5" />
  </Icon>
);
export const ClockIcon = () => (
  <Icon size={14}>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 7v5l3 2" />
  </Icon>
);
export const TickIcon = () => (
  <Icon size={16}>
    <path d="M4 12.5l5 5L20 6.5" />
  </Icon>
);
export const DoubleTickIcon = () => (
  <Icon size={18}>
    <path d="M1.5 12.5l5 5L17 7M10.5 16.5l1 1L22 7" />
  </Icon>
);
export const AlertIcon = () => (
  <Icon size={20}>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 7.5v5.5M12 16.5v.01" />
  </Icon>
);
export const InfoIcon = () => (
  <Icon size={18}>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 11v5.5M12 7.5v.01" />
  </Icon>
);
export const ChatsIcon = () => (
  <svg className="vonk-chat__icon" viewBox="0 0 64 64" width="120" height="120" aria-hidden="true" focusable="false">
    <path d="M8 14a8 8 0 018-8h24a8 8 0 018 8v14a8 8 0 01-8 8H24l-10 8v-8.5A8 8 0 018 28z" fill="#f7c9cd" />
    <path d="M22 30a8 8 0 018-8h20a8 8 0 018 8v12a8 8 0 01-6 7.7V58l-9-8H30a8 8 0 01-8-8z" fill="#8b1e2d" />
    <path d="M40 42.5c-4.5-3-6.5-5.5-6.5-8 0-2 1.6-3.6 3.5-3.6 1.3 0 2.4.8 3 1.8.6-1 1.7-1.8 3-1.8 1.9 0 3.5 1.6 3.5 3.6 0 2.5-2 5-6.5 8z" fill="#fff" />
  </svg>
);
