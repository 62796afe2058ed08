// npm run fuzz [-- --requests 10000 --seed 19 --concurrency 8]
// The fuzz suite's requests (tests/helpers/fuzz.ts) over HTTP against a fresh `npm start` server
// on a loopback port: every API route and method and the pages, hostile values throughout. Prints
// the answers by status class, the slowest, and every request that broke the property (a 5xx, an
// API error outside the one shape, no answer within 5 s). Exits 1 on any.
import { Agent, request as httpRequest } from 'node:http';
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { requests, statusClass, verdict, type FuzzRequest } from '../tests/helpers/fuzz.ts';
import { builtSiteUrl } from './lib/built-site-url.ts';
import { startBenchServer } from './lib/bench-server.ts';

const { values: args } = parseArgs({
  options: { requests: { type: 'string', default: '10000' }, seed: { type: 'string', default: '19' }, concurrency: { type: 'string', default: '8' } },
});
const TOTAL = Number(args.requests);
const SEED = Number(args.seed);
const CONCURRENCY = Number(args.concurrency);
const BOUND_MS = 5_000;

const server = await startBenchServer({ ...builtSiteUrl(), DEV_MAILBOX: 'true' });
const base = `http://127.0.0.1:${server.port}`;
const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

interface Answer {
  status: number;
  contentType: string;
  text: string;
  ms: number;
  timedOut?: boolean;
  error?: string;
}

function send(r: FuzzRequest): Promise<Answer> {
  const started = performance.now();
  return new Promise((done) => {
    const headers: Record<string, string | number> = { ...r.headers };
    if (r.body !== undefined) headers['content-length'] = Buffer.byteLength(r.body);
    const req = httpRequest(`${base}${r.path}`, { method: r.method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.length < 64 && chunks.push(c));
      res.on('end', () => done({ status: res.statusCode!, contentType: String(res.headers['content-type'] ?? ''), text: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - started }));
      res.on('error', (e) => done({ status: 0, contentType: '', text: '', ms: performance.now() - started, error: e.message }));
    });
    req.setTimeout(BOUND_MS, () => {
      req.destroy();
      done({ status: 0, contentType: '', text: '', ms: performance.now() - started, timedOut: true });
    });
    req.on('error', (e) => done({ status: 0, contentType: '', text: '', ms: performance.now() - started, error: e.message }));
    req.end(r.body);
  });
}

try {
  // A signed-in actor for the session cookie some requests carry.
  const signup = await fetch(`${base}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'fuzz-owner@example.com', password: 'fuzz-password-1', role: 'consultant', companyName: 'Fuzz Consulting' }),
  });
  const cookie = signup.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const samples = fc.sample(requests({ pages: true, sessionCookie: () => cookie }), { seed: SEED, numRuns: TOTAL });

  const byClass: Record<string, number> = {};
  const byStatus: Record<number, number> = {};
  const failures: string[] = [];
  let timeouts = 0;
  let connectionErrors = 0;
  let slowest = { ms: 0, what: '' };
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < samples.length) {
        const r = samples[next++]!;
        const answer = await send(r);
        const what = `${r.method} ${r.path.slice(0, 120)}`;
        if (answer.ms > slowest.ms) slowest = { ms: answer.ms, what };
        if (answer.timedOut) {
          timeouts++;
          failures.push(`${what} → no answer within ${BOUND_MS} ms`);
          continue;
        }
        if (answer.error) {
          connectionErrors++;
          failures.push(`${what} → ${answer.error}`);
          continue;
        }
        byClass[statusClass(answer.status)] = (byClass[statusClass(answer.status)] ?? 0) + 1;
        byStatus[answer.status] = (byStatus[answer.status] ?? 0) + 1;
        const problem = verdict(r, answer, BOUND_MS);
        if (problem) failures.push(`${what} → ${problem}`);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const health = await fetch(`${base}/api/health`);

  console.log(`fuzz: ${samples.length} requests (seed ${SEED}, ${CONCURRENCY} at a time) in ${seconds.toFixed(1)} s against ${base}`);
  console.log(`by class: ${['2xx', '3xx', '4xx', '5xx'].map((c) => `${c} ${byClass[c] ?? 0}`).join(' · ')} · timeouts ${timeouts} · connection errors ${connectionErrors}`);
  console.log(`by status: ${Object.entries(byStatus).map(([s, n]) => `${s}×${n}`).join(', ')}`);
  console.log(`slowest: ${slowest.ms.toFixed(0)} ms (${slowest.what})`);
  console.log(`afterwards GET /api/health: ${health.status}`);
  if (failures.length) {
    console.log(`\n${failures.length} requests broke the property:`);
    for (const f of failures.slice(0, 30)) console.log(`  ${f}`);
  } else {
    console.log('property held for every request: no 5xx, errors in the one shape, all within 5 s');
  }
  process.exitCode = failures.length || health.status !== 200 ? 1 : 0;
} finally {
  agent.destroy();
  await server.stop();
}
