import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { PaymentGroup } from '../../generated/PaymentGroup';
import type { PaymentMethod } from '../../generated/PaymentMethod';
import type { PaymentMethodBlocksLabels } from '../../generated/PaymentMethodBlocksLabels';
import type { PaymentMethodBlocksProps } from '../../generated/PaymentMethodBlocksProps';
import type { PaymentMethodOption } from '../../generated/PaymentMethodOption';
import type { PaymentMethodSelected } from '../../generated/PaymentMethodSelected';
import type { WidgetProps } from '../../types';
import { Mark } from './marks';
import './PaymentMethodBlocks.css';

/** Name of the event dispatched when the visitor picks a method; detail: `PaymentMethodSelected`. */
export const PAYMENT_METHOD_SELECT = 'vonk:payment-method-select';

const GROUP_LABEL: Record<PaymentGroup, keyof PaymentMethodBlocksLabels> = {
  card: 'group_card',
  wallet: 'group_wallet',
  bank: 'group_bank',
  voucher: 'group_voucher',
};

interface Group {
  group: PaymentGroup;
  options: PaymentMethodOption[];
}

/** Groups in the order their first method appears; methods keep their order within a group. */
export function groupMethods(methods: PaymentMethodOption[]): Group[] {
  const groups: Group[] = [];
  for (const option of methods) {
    let group = groups.find((g) => g.group === option.group);
    if (!group) {
      group = { group: option.group, options: [] };
      groups.push(group);
    }
    group.options.push(option);
  }
  return groups;
}

function CheckBadge() {
  return (
    <span className="vw-pmb__check" aria-hidden="true">
      <svg viewBox="0 0 16 16" width="16" height="16" focusable="false">
        <path d="M4 8.5l2.6 2.6L12 5.6" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
    </span>
  );
}

/**
 * Payment-method picker: one block per method, grouped (cards, wallets, bank, vouchers), a radio
 * group with a roving tab stop. Looking is not choosing: the arrow keys, Home and End move the
 * focus only; Enter, Space or a click chooses, and every choice (the preselected block's too)
 * dispatches `vonk:payment-method-select`, which on the checkout page starts paying.
 */
export function PaymentMethodBlocks({ methods, selected, labels, dispatch }: WidgetProps<PaymentMethodBlocksProps>) {
  const [current, setCurrent] = useState<PaymentMethod | null>(selected);
  // Follow the page when it changes `selected`; otherwise keep what the visitor picked.
  const [selectedProp, setSelectedProp] = useState<PaymentMethod | null>(selected);
  if (selected !== selectedProp) {
    setSelectedProp(selected);
    setCurrent(selected);
  }

  // The block that holds the group's one tab stop: the last one the keyboard moved to.
  const [focusStop, setFocusStop] = useState<PaymentMethod | null>(null);

  const baseId = useId();
  const blocks = useRef(new Map<PaymentMethod, HTMLDivElement>());
  const groups = useMemo(() => groupMethods(methods), [methods]);
  // Visual order, which is the keyboard order.
  const order = useMemo(() => groups.flatMap((g) => g.options.map((o) => o.method)), [groups]);
  const tabStop = focusStop !== null && order.includes(focusStop) ? focusStop : current !== null && order.includes(current) ? current : order[0];

  function choose(method: PaymentMethod) {
    setCurrent(method);
    setFocusStop(method);
    const detail: PaymentMethodSelected = { method };
    dispatch(PAYMENT_METHOD_SELECT, detail);
  }

  function moveTo(method: PaymentMethod) {
    setFocusStop(method);
    blocks.current.get(method)?.focus();
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>, method: PaymentMethod) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const count = order.length;
    const index = order.indexOf(method);
    let next: number;
    switch (event.key) {
      case 'ArrowRight':
      case 'ArrowDown':
        next = (index + 1) % count;
        break;
      case 'ArrowLeft':
      case 'ArrowUp':
        next = (index - 1 + count) % count;
        break;
      case 'Home':
        next = 0;
        break;
      case 'End':
        next = count - 1;
        break;
      case ' ':
      case 'Enter':
        event.preventDefault();
        choose(method);
        return;
      default:
        return;
    }
    event.preventDefault();
    moveTo(order[next]);
  }

  if (methods.length === 0) {
    return (
      <div className="vw-pmb vw-pmb--empty">
        <p className="vw-pmb__empty" role="status">
          {labels.empty}
        </p>
      </div>
    );
  }

  return (
    <div className="vw-pmb" role="radiogroup" aria-label={labels.title}>
      {groups.map(({ group, options }) => {
        const headingId = `${baseId}-${group}`;
        return (
          <section key={group} className="vw-pmb__group" role="group" aria-labelledby={headingId}>
            <h3 id={headingId} className="vw-pmb__group-title">
              {labels[GROUP_LABEL[group]]}
            </h3>
            <div className="vw-pmb__grid">
              {options.map(({ method, label }) => {
                const checked = method === current;
                return (
                  <div
                    key={method}
                    ref={(el) => {
                      if (el) blocks.current.set(method, el);
                      else blocks.current.delete(method);
                    }}
                    role="radio"
                    aria-checked={checked}
                    tabIndex={method === tabStop ? 0 : -1}
                    className={checked ? 'vw-pmb__block vw-pmb__block--selected' : 'vw-pmb__block'}
                    data-method={method}
                    onClick={() => choose(method)}
                    onKeyDown={(event) => onKeyDown(event, method)}
                  >
                    <span className="vw-pmb__mark">
                      <Mark method={method} label={label} />
                    </span>
                    <span className="vw-pmb__label">{label}</span>
                    <CheckBadge />
                  </div>
                );
              })}
            </div>
          </section>
        );
      })}
    </div>
  );
}
