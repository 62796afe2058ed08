// The entry (/widget/v1/loader.js): defines the queue stub if the page has not, notes where it came
// from and the key on its own tag, and starts the widget (async, once per page) and the key's
// config. The snippet's hints have the browser fetch both while it fetches the loader, so these
// requests find their answers already on the way (one round trip before the form); a snippet
// pasted without the hints gets two (decision 0205). Kept under 1 KB gzip (npm test checks).
// Trusted Types: on a page that requires them for scripts, the widget's address goes through a
// policy of our own ('localrank-widget'), created only where the API exists; a page whose
// `trusted-types` directive lists names must list it (decision 0180).
import { WIDGET_FILE, widgetApiBase } from '../../common/widget.ts';
import { answer } from './api.ts';
import { watchPolicy } from './policy.ts';
import type { QueueGlobal } from './queue.ts';

type TrustedTypes = { createPolicy(name: string, rules: { createScriptURL(url: string): string }): { createScriptURL(url: string): string } };
const win = window as { LocalRank?: QueueGlobal; trustedTypes?: TrustedTypes };
const script = document.currentScript as HTMLScriptElement | null;
const L: QueueGlobal =
  win.LocalRank ||
  (win.LocalRank = function (...args: unknown[]) {
    (L.q = L.q || []).push(args);
  } as QueueGlobal);
if (script) {
  const src = new URL(script.src);
  L.o = L.o || src.origin;
  const key = script.dataset.key;
  if (key) L.k = L.k || key;
  if (!L.l) {
    L.l = 1;
    // Before any request: what the page's CSP refuses is told apart from a network failure.
    watchPolicy(L.o, (L.v = L.v || {}));
    const widget = document.createElement('script');
    const url = `${src.origin}${src.pathname.replace(/[^/]*$/, '')}${WIDGET_FILE}`;
    let trusted = url;
    try {
      // Only the widget's own address passes: the policy cannot be used for anything else.
      trusted = win.trustedTypes?.createPolicy('localrank-widget', { createScriptURL: (u) => (u === url ? u : '') }).createScriptURL(url) ?? url;
    } catch {
      // A page that names its policies and not ours: the browser will say why the script is refused.
    }
    widget.async = true;
    widget.src = trusted;
    // The widget first: it is the longer download, and asking for the config takes the thread a while.
    document.head.appendChild(widget);
  }
  // This tag's key's config (a page may carry two agencies' snippets), fetched and read while the
  // widget downloads, unless the widget or another tag asked for it already (one request per key);
  // the widget picks the answer up. A CORS GET with the default credentials, as the snippet's
  // `crossorigin` hint asks for it (on another origin no cookie is sent either way).
  const configs = (L.c = L.c || {});
  if (key && !configs[key]) configs[key] = answer(fetch(`${widgetApiBase(L.o, key)}/config`));
}
