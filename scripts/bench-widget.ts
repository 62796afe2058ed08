// npm run bench:widget — the widget SDK's sizes (raw, gzip, brotli; the budgets npm test holds)
// and the time from the script tag to an interactive form on a host page on another origin,
// under a throttled Chromium (CDP: Network.emulateNetworkConditions, Emulation.setCPUThrottlingRate).
// The time is reported, not asserted: it depends on the machine.
//   npm run bench:widget [-- --runs 5] [-- --cpu 4] [-- --latency 150 --down 1600 --up 750]
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { createContext } from '../api/create-context.ts';
import { loadEnv } from '../api/env.ts';
import { widgetSnippet } from '../common/widget.ts';
import { WIDGET_BUDGETS, widgetSizes } from '../widget-sdk/build.ts';
import { freePort, startBenchServer } from './lib/bench-server.ts';
import { builtSiteUrl } from './lib/built-site-url.ts';
import { startHostPage } from './lib/widget-host-page.ts';
import { seedWidgetAgency } from './lib/widget-seed.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    cpu: { type: 'string', default: '4' },
    latency: { type: 'string', default: '150' },
    down: { type: 'string', default: '1600' },
    up: { type: 'string', default: '750' },
  },
});
const runs = Math.max(1, Number(values.runs));
const kb = (n: number) => `${(n / 1024).toFixed(2)} KB`;

const { loader, widget } = await widgetSizes();
console.log('Widget SDK sizes (script-tag build)');
console.log('  file                      raw        gzip       brotli     budget (gzip)');
for (const [f, budget] of [[loader, WIDGET_BUDGETS.loader], [widget, WIDGET_BUDGETS.widget]] as const) {
  console.log(`  ${f.file.padEnd(24)}  ${kb(f.raw).padEnd(9)}  ${kb(f.gzip).padEnd(9)}  ${kb(f.brotli).padEnd(9)}  ${kb(budget)} ${f.gzip <= budget ? 'ok' : 'OVER'}`);
}

const server = await startBenchServer({ ...builtSiteUrl(), WORKER: 'off', WIDGET_RATE_LIMIT_PER_IP: '100000' });
const product = `http://127.0.0.1:${server.port}`;
const hostPort = await freePort();
const ctx = await createContext(loadEnv({ ...process.env, ...server.env }));
const { key } = await seedWidgetAgency(ctx, { email: 'bench-widget@northstar.example', password: 'correct-horse-battery', hostnames: [`127.0.0.1:${hostPort}`] });
const snippet = widgetSnippet({ baseUrl: product, publishableKey: key.publishableKey, components: ['report-form'] });
const host = await startHostPage({ port: hostPort, product, pages: { '/': snippet } });

const executablePath = process.env.CHROMIUM_PATH || spawnSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).stdout.trim();
const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
const times: number[] = [];
try {
  for (let i = 0; i < runs; i++) {
    // A fresh context each run: nothing cached.
    const context = await browser.newContext();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: Number(values.latency),
      downloadThroughput: (Number(values.down) * 1024) / 8,
      uploadThroughput: (Number(values.up) * 1024) / 8,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: Number(values.cpu) });
    await page.goto(host.url);
    const loaderUrl = `${product}/widget/v1/loader.js`;
    const ms = await page.evaluate(
      (url) =>
        new Promise<number>((done) => {
          const check = () => {
            const button = document.querySelector('localrank-report-form')?.shadowRoot?.querySelector('button[type=submit]');
            if (button && !(button as HTMLButtonElement).disabled) {
              const start = performance.getEntriesByName(url)[0]?.startTime ?? 0;
              done(performance.now() - start);
            } else requestAnimationFrame(check);
          };
          check();
        }),
      loaderUrl,
    );
    times.push(ms);
    await context.close();
  }
} finally {
  await browser.close();
  await host.close();
  ctx.db.$client.close();
  await server.stop();
}
times.sort((a, b) => a - b);
console.log(`\nScript tag to interactive form, ${runs} cold runs (CPU ${values.cpu}x slower, ${values.latency} ms latency, ${values.down}/${values.up} kbit/s):`);
console.log(`  median ${Math.round(times[Math.floor(times.length / 2)]!)} ms, best ${Math.round(times[0]!)} ms, worst ${Math.round(times.at(-1)!)} ms`);
