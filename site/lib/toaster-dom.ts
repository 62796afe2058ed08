// The toast area without React: it renders the toast store ($toasts) into the page's region, so
// every page can show a toast (a queued one too) without loading React. Spec: one at a time,
// shown 5000 ms, swipe right 50 px to close, F8 focuses the region.
import { TOAST } from '../../common/constants.ts';
import { $toasts, dismissToast, showQueuedToast, type Toast } from './toasts.ts';

const CLOSE_ICON = '<svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true"><path d="M4 4l8 8M12 4l-8 8" stroke="currentColor" stroke-width="1.8" stroke-linecap="round"/></svg>';

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function toastElement(item: Toast): HTMLElement {
  // A status message, not a list item: the region holds at most one (axe `list`, `aria-allowed-role`).
  const node = el('div', `toast toast-${item.variant ?? 'default'}`);
  node.setAttribute('role', 'status');
  node.setAttribute('aria-live', item.variant === 'destructive' ? 'assertive' : 'polite');
  node.setAttribute('aria-atomic', 'true');
  node.dataset.toastId = String(item.id);
  const body = el('div', 'toast-body');
  body.append(el('div', 'toast-title', item.title));
  if (item.description) body.append(el('div', 'toast-description', item.description));
  node.append(body);
  if (item.action) {
    const action = el('button', 'toast-action', item.action.label);
    action.type = 'button';
    action.addEventListener('click', item.action.onClick);
    node.append(action);
  }
  const close = el('button', 'toast-close');
  close.type = 'button';
  close.setAttribute('aria-label', 'Close');
  close.innerHTML = CLOSE_ICON;
  close.addEventListener('click', () => dismissToast(item.id));
  node.append(close);

  let start: number | null = null;
  let dx = 0;
  const offset = (px: number) => {
    dx = px;
    node.style.transform = px ? `translateX(${px}px)` : '';
    node.style.opacity = px ? String(Math.max(0.3, 1 - px / 200)) : '';
  };
  node.addEventListener('pointerdown', (e) => {
    start = e.clientX;
  });
  node.addEventListener('pointermove', (e) => {
    if (start !== null) offset(Math.max(0, e.clientX - start));
  });
  const end = () => {
    if (start !== null && dx >= TOAST.swipeThresholdPx) dismissToast(item.id);
    start = null;
    offset(0);
  };
  node.addEventListener('pointerup', end);
  node.addEventListener('pointercancel', end);
  return node;
}

export function mountToaster(region: HTMLElement) {
  const list = region.querySelector<HTMLElement>('[data-toast-list]')!;
  const shown = new Map<number, HTMLElement>();
  $toasts.subscribe((toasts) => {
    for (const [id, node] of shown) {
      if (!toasts.some((t) => t.id === id)) {
        node.remove();
        shown.delete(id);
      }
    }
    for (const t of toasts) {
      let node = shown.get(t.id);
      if (!node) {
        node = toastElement(t);
        shown.set(t.id, node);
        list.prepend(node);
      }
      node.hidden = !t.open;
      node.dataset.state = t.open ? 'open' : 'closed';
    }
  });
  document.addEventListener('keydown', (e) => {
    if (e.key === TOAST.hotkey) {
      e.preventDefault();
      region.focus();
    }
  });
  showQueuedToast();
}
