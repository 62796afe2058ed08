// Toast state, shadcn-style: one at a time, shown 5000 ms, then closed and removed later.
import { atom } from 'nanostores';
import { TOAST } from '../../common/constants.ts';

export interface ToastInput {
  title: string;
  description?: string;
  variant?: 'default' | 'destructive';
  action?: { label: string; onClick: () => void };
}
export interface Toast extends ToastInput {
  id: number;
  open: boolean;
}

export const $toasts = atom<Toast[]>([]);
let nextId = 1;
const timers = new Map<number, ReturnType<typeof setTimeout>>();

export function toast(input: ToastInput): number {
  const id = nextId++;
  $toasts.set([{ ...input, id, open: true }, ...$toasts.get()].slice(0, TOAST.limit));
  timers.set(id, setTimeout(() => dismissToast(id), TOAST.durationMs));
  return id;
}

export function dismissToast(id: number) {
  clearTimeout(timers.get(id));
  timers.delete(id);
  $toasts.set($toasts.get().map((t) => (t.id === id ? { ...t, open: false } : t)));
  // Closed toasts are kept (hidden) until the removal delay, as the spec's constants say.
  setTimeout(() => $toasts.set($toasts.get().filter((t) => t.id !== id)), TOAST.removeDelayMs);
}

// A toast that must survive a page change (e.g. 'Welcome back!' before going to /account) is
// queued in session storage and shown by the toaster on the next page.
const QUEUE_KEY = 'localrank.toast';

export function queueToast(input: Omit<ToastInput, 'action'>) {
  try {
    sessionStorage.setItem(QUEUE_KEY, JSON.stringify(input));
  } catch {
    toast(input); // storage unavailable: show it now, at least
  }
}

export function showQueuedToast() {
  let input: ToastInput | null;
  try {
    const raw = sessionStorage.getItem(QUEUE_KEY);
    sessionStorage.removeItem(QUEUE_KEY);
    input = raw ? (JSON.parse(raw) as ToastInput) : null;
  } catch {
    input = null;
  }
  if (input && typeof input.title === 'string') toast({ title: input.title, description: input.description, variant: input.variant });
}
