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
