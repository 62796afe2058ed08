// `npm run bench:visibility [-- --latency 100 --grid free:3x1,pro:5x1,...]`: what the local visibility grid costs one report with the Google
// provider when every call takes 100 ms (a local stand-in on loopback answering in the Places API
// (New) shapes, ranking places by distance from each search's centre). For each plan: searches per
// report, the grid stage's time, and the report's wall time with the grid searched against the same
// report answered from the cache (no searches), whose difference is what the grid adds. Prints
// figures; asserts nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { TIERS, type Tier } from '../common/constants.ts';
import { createContext } from '../api/create-context.ts';
import { loadEnv } from '../api/env.ts';
import { analyseBusiness, type AnalyseStage } from '../api/report/analyse.ts';
import { distanceMiles } from '../api/report/analysis/geocode.ts';
import { DEFAULT_GRID_PLANS, SearchLedger } from '../api/report/analysis/visibility.ts';
import { createReportRequest } from '../tests/helpers/report-requests.ts';
import { createUser } from '../tests/helpers/factories.ts';

const { values } = parseArgs({ options: { latency: { type: 'string', default: '100' }, grid: { type: 'string', default: DEFAULT_GRID_PLANS } } });
const LATENCY = Math.max(0, Number(values.latency) || 0);
const CENTER = { latitude: 30.2713, longitude: -97.7426 };
const places = Array.from({ length: 30 }, (_, i) => {
  const miles = i === 0 ? 0 : 0.3 + i * 0.35;
  const a = i * 2.4;
  return { id: `gp${i}`, latitude: CENTER.latitude + (miles / 69) * Math.cos(a), longitude: CENTER.longitude + (miles / 59.6) * Math.sin(a) };
});
const full = (p: (typeof places)[number], i: number) => ({ id: p.id, displayName: { text: i === 0 ? 'Congress Avenue Dental' : `Dental Office ${i}` }, formattedAddress: `${100 + i} Main St, Austin, TX 78701`, rating: 4.3, userRatingCount: 40 + i, location: { latitude: p.latitude, longitude: p.longitude }, primaryType: 'dentist', primaryTypeDisplayName: { text: 'Dentist' } });

let gridSearches = 0;
const server = createServer((req, res) => {
  let raw = '';
  req.on('data', (c) => (raw += c));
  req.on('end', () => setTimeout(() => {
    const url = new URL(req.url!, 'http://x');
    const json = (body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (url.pathname === '/v1/places:searchText') {
      if (req.headers['x-goog-fieldmask'] !== 'places.id') return json({ places: [full(places[0]!, 0)] });
      gridSearches++;
      const c = (JSON.parse(raw) as { locationBias: { circle: { center: { latitude: number; longitude: number } } } }).locationBias.circle.center;
      return json({ places: [...places].sort((a, b) => distanceMiles(c, a) - distanceMiles(c, b)).slice(0, 20).map((p) => ({ id: p.id })) });
    }
    if (url.pathname === '/v1/places:searchNearby') return json({ places: places.slice(0, 20).map(full) });
    if (url.pathname.startsWith('/v1/places/')) return json({ reviews: [], businessStatus: 'OPERATIONAL', photos: [] });
    res.writeHead(404).end('{}');
  }, LATENCY));
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
// Everything after the stand-in starts is inside try … finally: it stops on every path.
let ctx: Awaited<ReturnType<typeof createContext>> | undefined;
let dataDir: string | undefined;
try {
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  dataDir = mkdtempSync(join(tmpdir(), 'localrank-bench-visibility-'));
  const env = loadEnv({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', PLACES_PROVIDER: 'google', GOOGLE_PLACES_KEY: 'bench', GOOGLE_PLACES_BASE_URL: base, GEOCODER_KEY: '', VISIBILITY_GRID: values.grid! });
  ctx = await createContext(env, { migrate: true });
  console.log(`bench:visibility  Google stand-in answering every call in ${LATENCY} ms; grids ${values.grid}; ${env.VISIBILITY_CONCURRENCY} searches at once, budget ${env.VISIBILITY_CALL_BUDGET} a report`);
  console.log('  plan        grid        searches  grid stage  report (searched)  report (cached)  grid adds');
  for (const tier of TIERS as readonly Tier[]) {
    const owner = await createUser(ctx, { tier });
    const { business } = await createReportRequest(ctx, { userId: owner.userId, company: 'Congress Avenue Dental', enqueue: false });
    const input = { businessId: business.id, fullName: 'Bench', email: 'bench@example.com', company: 'Congress Avenue Dental', website: '', address: '100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' };
    const ledger = new SearchLedger();
    const timing = new Map<AnalyseStage, number>();
    gridSearches = 0;
    let t = performance.now();
    const data = await analyseBusiness(ctx, input, { ledger, onStage: (s, ms) => timing.set(s, ms) });
    const searched = performance.now() - t;
    const searches = gridSearches;
    t = performance.now();
    await analyseBusiness(ctx, input, { ledger });
    const cached = performance.now() - t;
    const v = data.visibility!;
    const grid = `${v.size}×${v.size} × ${v.keywords.length}`;
    console.log(`  ${tier.padEnd(10)}  ${grid.padEnd(10)}  ${String(searches).padStart(8)}  ${`${timing.get('visibility')!.toFixed(0)} ms`.padStart(10)}  ${`${searched.toFixed(0)} ms`.padStart(17)}  ${`${cached.toFixed(0)} ms`.padStart(15)}  ${`${Math.max(0, searched - cached).toFixed(0)} ms`.padStart(9)}`);
  }
} finally {
  ctx?.db.$client.close();
  server.closeAllConnections();
  server.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
