// The JavaScript a page makes a browser download before any input, measured in Chromium: every
// script file it fetches (modules, islands, dynamic imports) until the network is idle and the page
// has been left alone for `quietMs` more (idle callbacks, timers), plus its inline scripts. Each is
// counted gzip-compressed at zlib's default level, as a server sends it, so the figure is the same
// on a fast and a slow machine. Used by `npm run bench:js` and the browser tests' budgets.
import { gzipSync } from 'node:zlib';
import type { Page } from '@playwright/test';

export interface ScriptBytes {
  /** Gzip bytes in all. */
  total: number;
  /** Each script file (its path) and the inline scripts, with its gzip bytes. */
  files: Array<{ what: string; gzip: number }>;
}

const gz = (text: string | Buffer) => gzipSync(text).length;

/** Opens `url` in `page` (a fresh page: nothing cached) and measures; `page` is left open. */
export async function scriptBytesBeforeInput(page: Page, url: string, quietMs = 2000): Promise<ScriptBytes> {
  const bodies: Array<Promise<{ what: string; gzip: number }>> = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    const what = new URL(response.url()).pathname;
    bodies.push(response.body().then((body) => ({ what, gzip: gz(body) }), () => ({ what, gzip: 0 })));
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  await page.waitForTimeout(quietMs);
  const inline = await page.evaluate(() =>
    [...document.querySelectorAll('script:not([src])')]
      .map((s) => s.textContent ?? '')
      .filter((t) => t.trim() && !t.trim().startsWith('{'))
      .join('\n'),
  );
  const files = await Promise.all(bodies);
  if (inline) files.push({ what: 'inline <script>s', gzip: gz(inline) });
  return { total: files.reduce((n, f) => n + f.gzip, 0), files };
}
