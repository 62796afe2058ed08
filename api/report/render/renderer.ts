// Rendering a report's files, inline or in a small pool of worker threads. The web process uses
// threads so a PDF (a few hundred milliseconds of CPU) never blocks requests on its event loop.
import { Worker } from 'node:worker_threads';
import type { Branding } from '../model/branding.ts';
import type { ReportData } from '../model/types.ts';
import { pdfPagePng } from './pdf-page.ts';
import { renderPdf, type ReportLinks } from './pdf.ts';
import { renderScoreCard } from './score-card.ts';

export interface RenderResult {
  png: Buffer;
  pdf: Buffer;
  pngMs: number;
  pdfMs: number;
  /** The PDF's first page as a PNG, when asked for (the branding preview). */
  pagePng?: Buffer;
}

export interface RenderOptions {
  firstPagePng?: boolean;
  /** The lane a render waits in: a thread pool serves its lanes in turn, so reports never wait
   *  behind a queue of previews, nor previews behind reports (decision 0250). */
  lane?: 'report' | 'preview';
}

export interface Renderer {
  kind: 'inline' | 'threads';
  /** The score card and the PDF, in the agency's branding or (null) ours. */
  render: (data: ReportData, links: ReportLinks, branding?: Branding | null, options?: RenderOptions) => Promise<RenderResult>;
  close: () => Promise<void>;
}

export function inlineRenderer(): Renderer {
  return {
    kind: 'inline',
    async render(data, links, branding = null, options = {}) {
      let t = performance.now();
      const png = await renderScoreCard(data, branding);
      const pngMs = performance.now() - t;
      t = performance.now();
      const pdf = await renderPdf(data, links, branding);
      const pdfMs = performance.now() - t;
      return { png, pdf, pngMs, pdfMs, ...(options.firstPagePng ? { pagePng: await pdfPagePng(pdf) } : {}) };
    },
    close: async () => {},
  };
}

interface Task {
  id: number;
  data: ReportData;
  links: ReportLinks;
  branding: Branding | null;
  options: RenderOptions;
  resolve: (r: RenderResult) => void;
  reject: (e: Error) => void;
}
interface Slot {
  worker: Worker;
  task: Task | null;
  idle?: NodeJS.Timeout;
}
type Reply = { id: number; png: Uint8Array; pdf: Uint8Array; pagePng?: Uint8Array; pngMs: number; pdfMs: number } | { id: number; error: string };

/** How long a render thread waits for work before it ends. A thread holds its modules, parsed
 *  fonts and heap; kept for good, a burst's threads held that memory for the process's life.
 *  Starting one again costs about 1.5 s of CPU (five renders), so a process that renders every
 *  few minutes keeps its threads (decision 0340). */
export const RENDER_THREAD_IDLE_MS = 5 * 60_000;

export interface ThreadRenderer extends Renderer {
  /** The threads running now, those still ending included. */
  threads: () => number;
}

export function threadRenderer(size = 1, options: { idleMs?: number } = {}): ThreadRenderer {
  const idleMs = options.idleMs ?? RENDER_THREAD_IDLE_MS;
  const slots: Slot[] = [];
  /** Threads told to end that have not exited yet. */
  const ending = new Set<Worker>();
  const queue: Task[] = [];
  let nextId = 1;
  let closed = false;

  function spawn(): Slot {
    const slot: Slot = { worker: new Worker(new URL('./render-thread.ts', import.meta.url)), task: null };
    slot.worker.unref();
    slot.worker.on('message', (reply: Reply) => {
      const task = slot.task;
      slot.task = null;
      slot.worker.unref();
      slot.idle = setTimeout(() => retire(slot), idleMs).unref();
      if (task && task.id === reply.id) {
        if ('error' in reply) task.reject(new Error(`render failed: ${reply.error}`));
        else task.resolve({ png: Buffer.from(reply.png), pdf: Buffer.from(reply.pdf), pngMs: reply.pngMs, pdfMs: reply.pdfMs, ...(reply.pagePng ? { pagePng: Buffer.from(reply.pagePng) } : {}) });
      }
      pump();
    });
    slot.worker.on('error', (error) => {
      slot.task?.reject(error);
      slot.task = null;
    });
    slot.worker.on('exit', () => {
      clearTimeout(slot.idle);
      ending.delete(slot.worker);
      if (slots.includes(slot)) slots.splice(slots.indexOf(slot), 1);
      slot.task?.reject(new Error('render thread exited'));
      if (!closed) pump();
    });
    slots.push(slot);
    return slot;
  }

  /** Ends an idle thread; out of the pool at once, so no task is given to a thread that is ending. */
  function retire(slot: Slot) {
    if (slot.task || !slots.includes(slot)) return;
    slots.splice(slots.indexOf(slot), 1);
    ending.add(slot.worker);
    void slot.worker.terminate();
  }

  // The lane served longest ago goes next; first come, first served inside a lane.
  const servedAt = new Map<string, number>();
  let served = 0;
  const laneOf = (task: Task) => task.options.lane ?? 'report';
  function next(): Task {
    let pick = 0;
    for (let i = 1; i < queue.length; i++) if ((servedAt.get(laneOf(queue[i]!)) ?? 0) < (servedAt.get(laneOf(queue[pick]!)) ?? 0)) pick = i;
    const [task] = queue.splice(pick, 1);
    servedAt.set(laneOf(task!), ++served);
    return task!;
  }

  function pump() {
    while (queue.length > 0) {
      const slot = slots.find((s) => !s.task) ?? (slots.length < size ? spawn() : undefined);
      if (!slot) return;
      const task = next();
      clearTimeout(slot.idle);
      slot.task = task;
      slot.worker.ref();
      slot.worker.postMessage({ id: task.id, data: task.data, links: task.links, branding: task.branding, options: task.options });
    }
  }

  return {
    kind: 'threads',
    threads: () => slots.length + ending.size,
    render(data, links, branding = null, options = {}) {
      if (closed) return Promise.reject(new Error('renderer closed'));
      return new Promise((resolve, reject) => {
        queue.push({ id: nextId++, data, links, branding, options, resolve, reject });
        pump();
      });
    },
    async close() {
      closed = true;
      for (const task of queue.splice(0)) task.reject(new Error('renderer closed'));
      await Promise.all(slots.map((s) => (clearTimeout(s.idle), s.worker.terminate())));
    },
  };
}
