import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { TOAST } from '../../../common/constants.ts';
import { $toasts, dismissToast, showQueuedToast, type Toast } from '../../lib/toasts.ts';
import './toaster.css';

function ToastItem({ item }: { item: Toast }) {
  const start = useRef<number | null>(null);
  const [dx, setDx] = useState(0);

  const onPointerDown = (e: PointerEvent) => {
    start.current = e.clientX;
  };
  const onPointerMove = (e: PointerEvent) => {
    if (start.current !== null) setDx(Math.max(0, e.clientX - start.current));
  };
  const onPointerUp = () => {
    if (dx >= TOAST.swipeThresholdPx) dismissToast(item.id);
    start.current = null;
    setDx(0);
  };

  return (
    <li
      className={`toast toast-${item.variant ?? 'default'}`}
      role="status"
      aria-live={item.variant === 'destructive' ? 'assertive' : 'polite'}
      aria-atomic="true"
      data-state={item.open ? 'open' : 'closed'}
      hidden={!item.open}
      style={dx ? { transform: `translateX(${dx}px)`, opacity: Math.max(0.3, 1 - dx / 200) } : undefined}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
    >
      <div className="toast-body">
        <div className="toast-title">{item.title}</div>
        {item.description && <div className="toast-description">{item.description}</div>}
      </div>
      {item.action && (
        <button type="button" className="toast-action" onClick={item.action.onClick}>
          {item.action.label}
        </button>
      )}
      <button type="button" className="toast-close" aria-label="Close" onClick={() => dismissToast(item.id)}>
        <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true"><path d="M4 4l8 8M12 4l-8 8" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" /></svg>
      </button>
    </li>
  );
}

export default function Toaster() {
  const toasts = useStore($toasts);
  const region = useRef<HTMLOListElement>(null);

  useEffect(() => {
    showQueuedToast();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === TOAST.hotkey) {
        e.preventDefault();
        region.current?.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  return (
    <section aria-label={`Notifications (${TOAST.hotkey})`} className="toaster-section">
      <ol ref={region} tabIndex={-1} className="toaster">
        {toasts.map((t) => (
          <ToastItem key={t.id} item={t} />
        ))}
      </ol>
    </section>
  );
}
