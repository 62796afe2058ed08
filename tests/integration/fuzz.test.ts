// Property-based fuzzing over every API route and method (tests/helpers/fuzz.ts), in-process with a
// fixed seed and a count that keeps the suite fast; `npm run fuzz` runs 10,000 over HTTP with the
// pages. Property: a 2xx or 4xx with the error shape, within 5 s, and the server still serves.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { API_ROUTES, requests, verdict } from '../helpers/fuzz.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { createUser } from '../helpers/factories.ts';

const SEED = 19;
// Ten a route: every route is drawn (at 800 for 104 routes, seed 19 missed one).
const RUNS = Number(process.env.FUZZ_RUNS ?? 10 * API_ROUTES.length);
const BOUND_MS = 5_000;

let t: TestContext;
let cookie = '';
beforeAll(async () => {
  t = await createTestContext({ LOG_LEVEL: 'silent' });
  cookie = (await createUser(t.ctx, { role: 'consultant', tier: 'agency' })).cookie;
});
afterAll(() => t.close());

it('fuzzes every route of the app (a new route must be added to API_ROUTES)', () => {
  const routes = [...new Set(t.app.routes.filter((r) => r.method !== 'ALL').map((r) => `${r.method} ${r.path}`))].sort();
  expect(routes).toEqual([...API_ROUTES].sort());
});

it(`${RUNS} hostile requests (seed ${SEED}): never a 5xx, errors in the one shape, each within ${BOUND_MS / 1000} s, and the server still serves`, async () => {
  const counts: Record<string, number> = {};
  await fc.assert(
    fc.asyncProperty(requests({ pages: false, sessionCookie: () => cookie }), async (request) => {
      const started = performance.now();
      const res = await t.app.request(request.path, { method: request.method, headers: request.headers, body: request.body });
      const text = await res.text();
      const problem = verdict(request, { status: res.status, contentType: res.headers.get('content-type') ?? '', text, ms: performance.now() - started }, BOUND_MS);
      counts[request.route] = (counts[request.route] ?? 0) + 1;
      if (problem) throw new Error(`${request.method} ${request.path.slice(0, 200)} → ${problem}`);
    }),
    { seed: SEED, numRuns: RUNS, endOnFailure: true },
  );
  expect((await t.app.request('/api/health')).status).toBe(200);
  // The generator reaches every route.
  expect(Object.keys(counts).sort()).toEqual([...API_ROUTES].sort());
}, 120_000);
