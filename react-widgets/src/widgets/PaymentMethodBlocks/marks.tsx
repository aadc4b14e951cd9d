/**
 * Small original marks for each payment method, drawn as inline SVG (no brand assets): colours,
 * a few shapes and wordmark text that evoke the method. Purely decorative: the block's label names
 * it, so every mark is aria-hidden.
 */
import type { ReactNode } from 'react';
import type { PaymentMethod } from '../../generated/PaymentMethod';

const W = 64;
const H = 40;
const LINE = '#e4dcdf';

interface WordProps {
  x?: number;
  y?: number;
  size?: number;
  fill?: string;
  weight?: number;
  italic?: boolean;
  /** Squeeze or stretch the text to exactly this width, so it fits whatever the font. */
  width?: number;
  anchor?: 'start' | 'middle' | 'end';
  children: ReactNode;
}

function Word({ x = W / 2, y = 25, size = 14, fill = '#fff', weight = 800, italic, width, anchor = 'middle', children }: WordProps) {
  return (
    <text
      x={x}
      y={y}
      fontSize={size}
      fontWeight={weight}
      fontStyle={italic ? 'italic' : undefined}
      fill={fill}
      textAnchor={anchor}
      textLength={width}
      lengthAdjust={width ? 'spacingAndGlyphs' : undefined}
    >
      {children}
    </text>
  );
}

/** Background plate: a filled rounded rectangle, outlined when it is white. */
function Plate({ fill }: { fill: string }) {
  const light = fill === '#fff';
  return <rect x={0.5} y={0.5} width={W - 1} height={H - 1} rx={7} fill={fill} stroke={light ? LINE : undefined} />;
}

const twoCircles = (left: string, right: string) => (
  <>
    <circle cx={26} cy={20} r={11} fill={left} />
    <circle cx={38} cy={20} r={11} fill={right} fillOpacity={0.82} />
  </>
);

type MarkSpec = [plate: string, art: ReactNode];

const MARKS: Record<PaymentMethod, MarkSpec> = {
  credit_card: [
    '#3a3f5c',
    <>
      <rect x={9} y={11} width={11} height={8} rx={2} fill="#f2c14e" />
      <path d="M13 11v8M9 15h11" stroke="#c99a2e" strokeWidth={0.8} />
      <rect x={9} y={26} width={10} height={3} rx={1.5} fill="#fff" fillOpacity={0.75} />
      <rect x={22} y={26} width={10} height={3} rx={1.5} fill="#fff" fillOpacity={0.75} />
      <rect x={35} y={26} width={10} height={3} rx={1.5} fill="#fff" fillOpacity={0.75} />
      <circle cx={50} cy={14} r={4} fill="#fff" fillOpacity={0.35} />
      <circle cx={54} cy={14} r={4} fill="#fff" fillOpacity={0.55} />
    </>,
  ],
  direct_debit: [
    '#0f766e',
    <>
      <path d="M43 20a11 11 0 1 1-3.2-7.8" fill="none" stroke="#fff" strokeWidth={2.4} strokeLinecap="round" />
      <path d="M41 7.5v5.4h-5.4" fill="none" stroke="#fff" strokeWidth={2.4} strokeLinecap="round" strokeLinejoin="round" />
      <Word y={25.5} size={14}>
        €
      </Word>
    </>,
  ],
  bank_transfer: [
    '#1d3557',
    <>
      <path d="M32 7l14 7H18z" fill="#fff" />
      <rect x={21} y={16} width={4} height={11} rx={0.5} fill="#fff" />
      <rect x={27} y={16} width={4} height={11} rx={0.5} fill="#fff" />
      <rect x={33} y={16} width={4} height={11} rx={0.5} fill="#fff" />
      <rect x={39} y={16} width={4} height={11} rx={0.5} fill="#fff" />
      <rect x={17} y={29} width={30} height={3.5} rx={1} fill="#fff" />
    </>,
  ],
  paypal: [
    '#fff',
    <Word size={15} italic width={46}>
      <tspan fill="#0b3a8c">Pay</tspan>
      <tspan fill="#1c9ad6">Pal</tspan>
    </Word>,
  ],
  ideal: [
    '#fff',
    <>
      <rect x={7} y={8} width={24} height={24} rx={5} fill="none" stroke="#1f1a1c" strokeWidth={1.6} />
      <Word x={19} y={26} size={15} fill="#1f1a1c">
        iD
      </Word>
      <Word x={45} y={25.5} size={12} fill="#cc0066" width={22}>
        EAL
      </Word>
    </>,
  ],
  bancontact: [
    '#fff',
    <>
      <path d="M13 10h25l-6 10H7z" fill="#1e3a78" />
      <path d="M32 20h25l-6 10H26z" fill="#f5c400" />
    </>,
  ],
  apple_pay: [
    '#111',
    <>
      <circle cx={18} cy={22} r={7} fill="#fff" />
      <path d="M18.5 14.5c.5-3 2.8-5 5.5-5.2-.4 3-2.6 5-5.5 5.2z" fill="#fff" />
      <Word x={42} y={26} size={15} width={24}>
        Pay
      </Word>
    </>,
  ],
  blik: [
    '#111',
    <>
      <Word x={29} y={27} size={18} width={30}>
        blik
      </Word>
      <circle cx={49} cy={13} r={4} fill="#e6007e" />
    </>,
  ],
  giropay: [
    '#fff',
    <>
      <rect x={5} y={9} width={30} height={22} rx={5} fill="#0d2a8a" />
      <Word x={20} y={25} size={12} width={22}>
        giro
      </Word>
      <Word x={47} y={25} size={12} fill="#d9152b" width={20}>
        pay
      </Word>
    </>,
  ],
  sofort: [
    '#ef809f',
    <Word y={24.5} size={12} width={46}>
      SOFORT
    </Word>,
  ],
  eps: [
    '#fff',
    <>
      <Word y={24} size={19} fill="#c8036f" italic width={32}>
        eps
      </Word>
      <path d="M16 30q16 6 32 0" fill="none" stroke="#71706e" strokeWidth={1.8} strokeLinecap="round" />
    </>,
  ],
  mastercard: ['#fff', twoCircles('#e8112d', '#f8a21b')],
  visa: [
    '#1a1f71',
    <>
      <Word y={25} size={17} italic width={40}>
        VISA
      </Word>
      <rect x={12} y={30} width={12} height={2.5} rx={1.2} fill="#f7b600" />
    </>,
  ],
  maestro: ['#fff', twoCircles('#0a9cdf', '#e1001f')],
  twint: [
    '#111',
    <>
      <rect x={7} y={12} width={16} height={16} rx={4} fill="#fff" />
      <path d="M15 15.5v9M10.5 20h9" stroke="#111" strokeWidth={2.4} strokeLinecap="round" />
      <Word x={42} y={24.5} size={12} width={30}>
        TWINT
      </Word>
    </>,
  ],
  swish: [
    '#fff',
    <>
      <path d="M8 22a8 8 0 0 1 13-7" fill="none" stroke="#1fa0e6" strokeWidth={3} strokeLinecap="round" />
      <path d="M22 18a8 8 0 0 1-13 7" fill="none" stroke="#52b54a" strokeWidth={3} strokeLinecap="round" />
      <Word x={43} y={24.5} size={13} fill="#1f1a1c" weight={700} width={30}>
        swish
      </Word>
    </>,
  ],
  vipps: [
    '#ff5b24',
    <>
      <Word y={23} size={14} width={34}>
        vipps
      </Word>
      <path d="M24 28q8 5 16 0" fill="none" stroke="#fff" strokeWidth={2} strokeLinecap="round" />
    </>,
  ],
  mobilepay: [
    '#5a78ff',
    <>
      <rect x={9} y={8} width={13} height={24} rx={3} fill="none" stroke="#fff" strokeWidth={2} />
      <circle cx={15.5} cy={27.5} r={1.3} fill="#fff" />
      <Word x={42} y={25.5} size={14} width={26}>
        Pay
      </Word>
    </>,
  ],
  satispay: [
    '#ef373e',
    <Word y={24.5} size={12} weight={700} width={48}>
      satispay
    </Word>,
  ],
  dankort: [
    '#fff',
    <>
      <rect x={6} y={8} width={52} height={24} rx={12} fill="#e3001b" />
      <Word y={24} size={11} width={38}>
        Dankort
      </Word>
    </>,
  ],
  nexi: [
    '#2d32aa',
    <Word y={26} size={17} width={34}>
      nexi
    </Word>,
  ],
  carte_bancaire: [
    '#fff',
    <>
      <rect x={6} y={7} width={30} height={26} rx={4} fill="#00599c" />
      <rect x={30} y={7} width={28} height={26} rx={4} fill="#00a19a" />
      <Word y={26} size={17} width={28}>
        CB
      </Word>
    </>,
  ],
  postepay: [
    '#ffe000',
    <Word y={24.5} size={12} fill="#1b3e94" width={48}>
      postepay
    </Word>,
  ],
  paysafecard: [
    '#fff',
    <>
      <Word y={21} size={11} fill="#008ac9" width={50}>
        paysafecard
      </Word>
      <rect x={7} y={26} width={50} height={3} rx={1.5} fill="#008ac9" fillOpacity={0.35} />
    </>,
  ],
  przelewy24: [
    '#fff',
    <>
      <Word x={26} y={26.5} size={18} fill="#d13239" width={13}>
        P
      </Word>
      <Word x={41} y={26.5} size={18} fill="#3f3f3f" width={17}>
        24
      </Word>
    </>,
  ],
};

/** Initials of a label, for a method this version does not know yet. */
function initials(label: string): string {
  const words = label.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? words[0][0] + words[1][0] : (words[0] ?? '?').slice(0, 2);
  return letters.toUpperCase();
}

export function Mark({ method, label }: { method: PaymentMethod; label: string }) {
  const spec: MarkSpec = MARKS[method] ?? [
    '#6b5f63',
    <Word y={25.5} size={15}>
      {initials(label)}
    </Word>,
  ];
  return (
    <svg className="vw-mark" viewBox={`0 0 ${W} ${H}`} width={W} height={H} aria-hidden="true" focusable="false" data-mark={method}>
      <Plate fill={spec[0]} />
      {spec[1]}
    </svg>
  );
}
