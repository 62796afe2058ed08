// The widget's queue API (issue 15): the snippet's stub and the loader record calls made before
// the widget has loaded; the widget replays them in order and then runs calls at once.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { WIDGET_QUEUE_STUB } from '../../common/widget.ts';
import { buildScriptTag } from '../../widget-sdk/build.ts';
import { takeOver, type QueueGlobal } from '../../widget-sdk/src/queue.ts';

const dir = mkdtempSync(join(tmpdir(), 'widget-queue-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Win = { window?: Win; LocalRank?: QueueGlobal; document?: unknown; URL?: typeof URL };

function withStub(): Win {
  const win: Win = {};
  win.window = win;
  runInNewContext(WIDGET_QUEUE_STUB, win);
  return win;
}

describe('the queue API', () => {
  it('queues calls in the stub and replays them in order, then runs later calls at once', () => {
    const win = withStub();
    win.LocalRank!('init', { key: 'lr_pk_a' });
    win.LocalRank!('mount', { component: 'report-form', target: '#one' });
    expect(Array.from(win.LocalRank!.q!, (args) => args[0])).toEqual(['init', 'mount']);

    const ran: string[] = [];
    const live = takeOver(win, (command, arg, state) => {
      if (command === 'init') state.k = (arg as { key: string }).key;
      ran.push(`${command}:${state.k}`);
    });
    expect(ran).toEqual(['init:lr_pk_a', 'mount:lr_pk_a']);
    expect(win.LocalRank).toBe(live);
    win.LocalRank!('mount', { component: 'score-card', target: '#two' });
    expect(ran).toEqual(['init:lr_pk_a', 'mount:lr_pk_a', 'mount:lr_pk_a']);
  });

  it('works without any call queued (custom elements only)', () => {
    const win: Win = {};
    const ran: string[] = [];
    takeOver(win, (command) => ran.push(command));
    expect(ran).toEqual([]);
    expect(typeof win.LocalRank).toBe('function');
  });

  it('the loader keeps a page\'s queue, notes its origin and key, and asks for the widget once', async () => {
    const { loader } = await buildScriptTag(dir);
    const appended: Array<{ src: string; async: boolean }> = [];
    const win = withStub();
    win.LocalRank!('init', { key: 'lr_pk_from_init' });
    const order: string[] = [];
    const document = {
      currentScript: { src: 'https://app.example.com/widget/v1/loader.js', dataset: { key: 'lr_pk_from_tag' } },
      createElement: () => ({ async: false, src: '' }),
      head: { appendChild: (el: { src: string; async: boolean }) => (order.push('widget'), appended.push(el)) },
      // The watch for what the page's CSP refuses (issue 40), added before any request.
      addEventListener: (type: string) => order.push(type),
    };
    // The config request starts beside the widget's, after it (the widget is the longer download),
    // as the snippet's hint asks for it (no options: a CORS GET with the default credentials, or
    // the hint's answer would not be used), and its body is read before the widget runs.
    const fetched: Array<[string, unknown]> = [];
    const fetch = (url: string, init: unknown) => (order.push('config'), fetched.push([url, init]), Promise.resolve({ status: 200, json: async () => ({ agency: 'Northstar' }) }));
    Object.assign(win, { document, URL, fetch });
    const code = readFileSync(loader, 'utf8');
    runInNewContext(code, win);
    runInNewContext(code, win);
    expect(appended).toEqual([{ async: true, src: 'https://app.example.com/widget/v1/widget.js' }]);
    expect(win.LocalRank!.o).toBe('https://app.example.com');
    expect(win.LocalRank!.k).toBe('lr_pk_from_tag');
    expect(win.LocalRank!.q).toHaveLength(1);
    expect(fetched).toEqual([['https://app.example.com/api/widget/v1/lr_pk_from_tag/config', undefined]]);
    expect(order).toEqual(['securitypolicyviolation', 'widget', 'config']);
    expect(win.LocalRank!.v).toEqual({});
    expect(Object.keys(win.LocalRank!.c!)).toEqual(['lr_pk_from_tag']);
    expect(await win.LocalRank!.c!.lr_pk_from_tag).toEqual({ status: 200, data: { agency: 'Northstar' } });
    // A second agency's snippet on the same page: its key's config too, the widget still once.
    document.currentScript.dataset.key = 'lr_pk_second';
    runInNewContext(code, win);
    expect(appended).toHaveLength(1);
    expect(fetched.map(([url]) => url)).toEqual(['https://app.example.com/api/widget/v1/lr_pk_from_tag/config', 'https://app.example.com/api/widget/v1/lr_pk_second/config']);
    expect(win.LocalRank!.k).toBe('lr_pk_from_tag');
  });
});
