// The queue API. The snippet's stub (WIDGET_QUEUE_STUB in common/widget.ts, also defined by the
// loader) records calls as `LocalRank.q`; the widget, once loaded, replays them in order and
// takes the global's place, so later calls run at once.
import type { Answer } from './api.ts';
import type { Refusals } from './policy.ts';

export type Command = 'init' | 'mount';
export interface MountOptions {
  component: 'report-form' | 'score-card';
  /** An element or a CSS selector: the widget is placed inside it. */
  target: Element | string;
  key?: string;
}
export interface QueueGlobal {
  (command: Command, arg?: unknown): void;
  /** Calls made before the widget loaded. */
  q?: ArrayLike<unknown>[];
  /** The product's origin (set by the loader from its own address). */
  o?: string;
  /** The default publishable key (the loader's data-key, or 'init'). */
  k?: string;
  /** Set once the loader has asked for the widget script. */
  l?: number;
  /** The config requests the loader started, by key (the widget reads the answer). */
  c?: Record<string, Promise<Answer>>;
  /** What the page's Content Security Policy refused on the product's origin (the loader's watch). */
  v?: Refusals;
}

/** Replaces the stub with a live function and replays what was queued, in order. */
export function takeOver(win: { LocalRank?: QueueGlobal }, run: (command: Command, arg: unknown, state: QueueGlobal) => void): QueueGlobal {
  const stub = win.LocalRank;
  const queued = stub?.q ?? [];
  const live: QueueGlobal = (command, arg) => run(command, arg, live);
  live.o = stub?.o;
  live.k = stub?.k;
  live.l = stub?.l;
  live.c = stub?.c;
  live.v = stub?.v;
  win.LocalRank = live;
  for (const args of Array.from(queued)) run(args[0] as Command, args[1], live);
  return live;
}
