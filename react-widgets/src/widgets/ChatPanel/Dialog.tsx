import { useLayoutEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { CloseIcon } from './icons';

const FOCUSABLE = 'a[href], button:not([disabled]), textarea:not([disabled]), input:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])';

interface DialogProps {
  title: string;
  closeLabel: string;
  onClose: () => void;
  children: ReactNode;
  /** Extra class on the dialog box (e.g. a bottom sheet on phones). */
  className?: string;
  /** The element describing the dialog (e.g. a question), by id. */
  describedBy?: string;
  /** Where focus goes when the dialog closes; null: back to the element that opened it. */
  returnFocus?: () => HTMLElement | null;
}

/**
 * A modal dialog inside the panel: `role="dialog"`, `aria-modal`, labelled by its title, a close
 * button, Escape closes, Tab stays inside, and focus goes back to the opener on close.
 */
export function Dialog({ title, closeLabel, onClose, children, className, describedBy, returnFocus }: DialogProps) {
  const titleId = useId();
  const box = useRef<HTMLDivElement>(null);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  const returnRef = useRef(returnFocus);
  returnRef.current = returnFocus;

  // A layout effect: focus moves into the dialog before the next key press can reach the opener.
  useLayoutEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const el = box.current;
    // The first choice, or the dialog itself; the close button only as a last resort.
    const first = el?.querySelector<HTMLElement>(`.vonk-chat__dialog-body :is(${FOCUSABLE})`);
    (first ?? el)?.focus();
    return () => {
      const target = returnRef.current?.() ?? opener;
      if (target && target.isConnected) target.focus();
    };
  }, []);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === 'Escape') {
      event.stopPropagation();
      event.preventDefault();
      closeRef.current();
      return;
    }
    if (event.key !== 'Tab' || !box.current) return;
    const items = [...box.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    if (items.length === 0) return;
    const first = items[0];
    const last = items[items.length - 1];
    if (event.shiftKey && (document.activeElement === first || document.activeElement === box.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  }

  return (
    <div
      className="vonk-chat__overlay"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) closeRef.current();
      }}
    >
      <div
        ref={box}
        className={`vonk-chat__dialog${className ? ` ${className}` : ''}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={describedBy}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <div className="vonk-chat__dialog-head">
          <h3 id={titleId} className="vonk-chat__dialog-title">
            {title}
          </h3>
          <button type="button" className="vonk-chat__icon-button" aria-label={closeLabel} title={closeLabel} onClick={() => closeRef.current()}>
            <CloseIcon />
          </button>
        </div>
        <div className="vonk-chat__dialog-body">{children}</div>
      </div>
    </div>
  );
}
