// The toast store against spec section 9's constants: one at a time, shown 5000 ms, kept hidden
// until the 1,000,000 ms removal delay; and the toast queued for the next page.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOAST } from '../../common/constants.ts';
import { $toasts, dismissToast, queueToast, showQueuedToast, toast } from '../../site/lib/toasts.ts';

class MemoryStorage {
  private map = new Map<string, string>();
  getItem(key: string) {
    return this.map.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.map.set(key, value);
  }
  removeItem(key: string) {
    this.map.delete(key);
  }
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('sessionStorage', new MemoryStorage());
  $toasts.set([]);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('toasts', () => {
  it('keeps one at a time, the newest', () => {
    toast({ title: 'first' });
    toast({ title: 'second' });
    expect(TOAST.limit).toBe(1);
    expect($toasts.get().map((t) => t.title)).toEqual(['second']);
  });

  it('closes after 5000 ms and removes after the removal delay', () => {
    toast({ title: 'hello' });
    vi.advanceTimersByTime(4999);
    expect($toasts.get()[0]!.open).toBe(true);
    vi.advanceTimersByTime(1);
    expect($toasts.get()[0]!.open).toBe(false);
    vi.advanceTimersByTime(1_000_000 - 1);
    expect($toasts.get()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect($toasts.get()).toHaveLength(0);
  });

  it('closing by hand stops the display timer', () => {
    const id = toast({ title: 'bye' });
    dismissToast(id);
    expect($toasts.get()[0]!.open).toBe(false);
  });

  it('a queued toast shows once, on the next page', () => {
    queueToast({ title: 'Welcome back!', description: 'Signed in.' });
    expect($toasts.get()).toEqual([]);
    showQueuedToast();
    expect($toasts.get().map((t) => [t.title, t.description, t.open])).toEqual([['Welcome back!', 'Signed in.', true]]);
    $toasts.set([]);
    showQueuedToast();
    expect($toasts.get()).toEqual([]);
  });

  it('a malformed queued entry is dropped, not thrown', () => {
    sessionStorage.setItem('localrank.toast', '{not json');
    expect(() => showQueuedToast()).not.toThrow();
    expect($toasts.get()).toEqual([]);
  });
});
