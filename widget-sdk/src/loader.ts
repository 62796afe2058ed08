// The stable entry (/widget/v1/loader.js, short-cached): defines the queue stub if the page has
// not, notes where it came from and the key on its own tag, and loads the content-hashed widget
// once, asynchronously. Kept under 1 KB gzip (npm test checks).
import type { QueueGlobal } from './queue.ts';

declare const __WIDGET_FILE__: string;

const win = window as { LocalRank?: QueueGlobal };
const script = document.currentScript as HTMLScriptElement | null;
const L: QueueGlobal =
  win.LocalRank ||
  (win.LocalRank = function (...args: unknown[]) {
    (L.q = L.q || []).push(args);
  } as QueueGlobal);
if (script) {
  const src = new URL(script.src);
  L.o = L.o || src.origin;
  if (script.dataset.key) L.k = L.k || script.dataset.key;
  if (!L.l) {
    L.l = 1;
    const widget = document.createElement('script');
    widget.async = true;
    widget.src = `${src.origin}${src.pathname.replace(/[^/]*$/, '')}${__WIDGET_FILE__}`;
    document.head.appendChild(widget);
  }
}
