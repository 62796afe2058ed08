// At most `running` tasks at once per key (an agency), and one waiting behind them: a newer task
// takes the waiting place and the one it replaces is refused with 429 and Retry-After. Made for
// the branding preview (decision 0250), where a newer preview makes the waiting one worthless:
// the form shows only the answer to its latest values. Per process, in memory.
import { AppError } from '../errors.ts';

interface Waiter {
  start: () => void;
  refuse: (error: AppError) => void;
}

export interface PerKeyLimit {
  run<T>(key: string, task: () => Promise<T>): Promise<T>;
  /** How many tasks of a key run, and wait (0 or 1). */
  load(key: string): { running: number; waiting: number };
}

export function perKeyLimit({ running, retryAfterSeconds, message }: { running: number; retryAfterSeconds: number; message: string }): PerKeyLimit {
  const state = new Map<string, { running: number; waiting: Waiter | null }>();
  const of = (key: string) => {
    let s = state.get(key);
    if (!s) state.set(key, (s = { running: 0, waiting: null }));
    return s;
  };
  const finish = (key: string) => {
    const s = of(key);
    s.running--;
    const next = s.waiting;
    s.waiting = null;
    if (next) next.start();
    else if (s.running === 0) state.delete(key);
  };
  return {
    run(key, task) {
      const s = of(key);
      const go = () => {
        s.running++;
        return task().finally(() => finish(key));
      };
      if (s.running < running) return go();
      return new Promise((resolve, reject) => {
        s.waiting?.refuse(new AppError('rate_limited', message, { retryAfterSeconds }));
        s.waiting = { start: () => go().then(resolve, reject), refuse: reject };
      });
    },
    load: (key) => ({ running: state.get(key)?.running ?? 0, waiting: state.get(key)?.waiting ? 1 : 0 }),
  };
}
