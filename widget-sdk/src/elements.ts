// The script-tag build's entry: the custom elements <localrank-report-form> and
// <localrank-score-card> (each in its own shadow root; mounted when connected, unmounted when
// removed, so single-page apps can remove and re-add them) and the queue API's replay:
// LocalRank('init', { key }) and LocalRank('mount', { component, target, key? }). An element names
// its key in `data-key`, an attribute no framework keeps for itself (Vue and React take `key` for
// their own bookkeeping and never put it on the element, issue 40); `key`, the attribute of
// snippets pasted before, is still read where it survives (plain HTML).
import { createElement, render } from 'preact';
import { widgetApi } from './api.ts';
import { PublishedScoreCardView, ReportFormView } from './report-form.tsx';
import { takeOver, type Command, type MountOptions, type QueueGlobal } from './queue.ts';
import { adoptStyles } from './styles.ts';

const VIEWS = { 'report-form': ReportFormView, 'score-card': PublishedScoreCardView } as const;
type Name = keyof typeof VIEWS;
let global: QueueGlobal | undefined;

function defineElement(name: Name) {
  const tag = `localrank-${name}`;
  if (customElements.get(tag)) return;
  customElements.define(
    tag,
    class extends HTMLElement {
      connectedCallback() {
        const root = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
        adoptStyles(root);
        // (global is set before any element is defined.)
        const key = this.dataset.key || this.getAttribute('key') || global!.k || '';
        const origin = this.getAttribute('origin') || global!.o || '';
        // The config requests by key, the loader's among them: one per key and page, whoever
        // asks first (a loader running later finds it there too).
        const configs = (global!.c ||= {});
        const started = configs[key];
        const api = widgetApi(origin, key, configs, global!.v);
        // The views are written against React's types; in this build `react` is Preact.
        const mount = () => this.isConnected && render(createElement(VIEWS[name] as never, { api }), root);
        if (!started) return void mount();
        // The loader's config answer is usually in before the widget: waiting for it (a microtask
        // then) makes the first render the form itself, in the task that ran the widget, with no
        // frame of "Loading…" first (at 4× CPU that frame cost ~15 ms). A slower answer gets
        // "Loading…" after 100 ms.
        const early = setTimeout(mount, 100);
        const settled = () => (clearTimeout(early), mount());
        void api.config().then(settled, settled);
      }
      disconnectedCallback() {
        if (this.shadowRoot) render(null, this.shadowRoot);
      }
    },
  );
}

function run(command: Command, arg: unknown, state: QueueGlobal) {
  if (command == 'init') {
    const key = (arg as { key?: string } | undefined)?.key;
    if (key) state.k = key;
  } else if (command == 'mount') {
    const options = arg as MountOptions;
    const target = typeof options.target == 'string' ? document.querySelector(options.target) : options.target;
    // Called from the page's head, the target may not be parsed yet: try again once it is.
    if (!target && document.readyState == 'loading') return void addEventListener('DOMContentLoaded', () => run(command, arg, state));
    if (!target || !(options.component in VIEWS)) return;
    const element = document.createElement(`localrank-${options.component}`);
    if (options.key) element.dataset.key = options.key;
    target.replaceChildren(element);
  }
}

if (!customElements.get('localrank-report-form')) {
  // Replay first, so queued 'init' sets the key before any element on the page connects.
  global = takeOver(window as { LocalRank?: QueueGlobal }, run);
  defineElement('report-form');
  defineElement('score-card');
}
