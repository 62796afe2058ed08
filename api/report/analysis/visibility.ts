// Local visibility: the geo-grid scan. One keyword searched from every point of an N×N grid
// centred on the business ranks every place the provider knows there; the business and its
// competitors are found in each answer by their provider place ids (no name matching). Per place
// and keyword: the rank at each point (1-20, or null when not in the top 20), Share of Local Voice
// (share of points in the top 3), Average Rank Position (over the points where it appears) and
// Average Total Rank Position (not found counted as 21).
//
// Cost control (decision 0160): the plan sets the grid size and the number of keywords; a report
// makes at most VISIBILITY_CALL_BUDGET searches and a provider at most VISIBILITY_DAILY_CAP a day;
// identical searches (provider, keyword, point rounded to 3 decimals, UTC day) are answered from a
// cache shared by the reports of the process; a quota refusal (429) stops the scan, backs the
// provider off for a while, and leaves the visibility "Not measured" without failing the report.
import { round, type Tier } from '../../../common/constants.ts';
import type { KeywordGrid, Point, VisibilityScan } from '../model/types.ts';
import { GRID_DEPTH, TOP_RANKS, type GridPlan } from '../../../common/visibility-bands.ts';
import { describeFailure, ProviderError, type PlacesProvider, type RankQuery } from './providers/types.ts';

export { GRID_DEPTH, TOP_RANKS };
export type { KeywordGrid, Point, VisibilityScan };
export { DEFAULT_GRID_PLANS, parseGridPlans } from '../../../common/visibility-bands.ts';
/** "Not in the top 20" counts as one past it in ATRP. */
export const NOT_FOUND_RANK = GRID_DEPTH + 1;
export const GRID_MIN_MILES = 1;
export const GRID_MAX_MILES = 10;
/** The grid reaches this competitor (by distance), when there are that many. */
export const GRID_REACH_COMPETITOR = 5;
/** With no competitor to size it by. */
export const GRID_DEFAULT_MILES = 3;
/** After a quota refusal, the provider is left alone this long. */
export const QUOTA_BACKOFF_MS = 15 * 60_000;
const CACHE_ENTRIES = 50_000;


export interface GridGeometry {
  size: number;
  /** Miles from the centre to the grid's edge rows and columns. */
  radiusMiles: number;
  /** Miles between neighbouring points. */
  spacingMiles: number;
  /** How the radius was chosen, in words. */
  basis: string;
  /** Row by row, north to south, each west to east; coordinates rounded to 3 decimals. */
  points: Point[];
}

const MILES_PER_DEGREE_LAT = 69.055;
const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** The grid follows the market: it reaches the GRID_REACH_COMPETITOR-th nearest competitor
 *  (the farthest when there are fewer), clamped to GRID_MIN_MILES-GRID_MAX_MILES. */
export function gridGeometry(center: Point, competitorMiles: number[], size: number): GridGeometry {
  const sorted = [...competitorMiles].filter((d) => Number.isFinite(d)).sort((a, b) => a - b);
  const reach = sorted.length === 0 ? null : sorted[Math.min(GRID_REACH_COMPETITOR, sorted.length) - 1]!;
  const raw = reach ?? GRID_DEFAULT_MILES;
  const radiusMiles = round(Math.min(GRID_MAX_MILES, Math.max(GRID_MIN_MILES, raw)), 2);
  const nth = Math.min(GRID_REACH_COMPETITOR, sorted.length);
  const basis = reach === null
    ? `no competitor was found, so the grid spans ${GRID_DEFAULT_MILES} miles each way`
    : `the grid reaches the ${nth === 1 ? 'nearest' : `${ordinal(nth)}-nearest`} competitor, ${raw.toFixed(2)} miles away${raw !== radiusMiles ? `, held to ${GRID_MIN_MILES}-${GRID_MAX_MILES} miles` : ''}`;
  const spacingMiles = round((2 * radiusMiles) / (size - 1), 2);
  const half = (size - 1) / 2;
  const points: Point[] = [];
  const cos = Math.cos((center.latitude * Math.PI) / 180) || 1e-6;
  for (let r = 0; r < size; r++) {
    for (let c = 0; c < size; c++) {
      const north = ((half - r) * 2 * radiusMiles) / (size - 1);
      const east = ((c - half) * 2 * radiusMiles) / (size - 1);
      points.push({ latitude: round3(center.latitude + north / MILES_PER_DEGREE_LAT), longitude: round3(center.longitude + east / (MILES_PER_DEGREE_LAT * cos)) });
    }
  }
  return { size, radiusMiles, spacingMiles, basis, points };
}

function ordinal(n: number): string {
  return ['', 'first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth'][n] ?? `${n}th`;
}

// ---- metrics -------------------------------------------------------------------------------

export interface GridMetrics {
  /** Share of points in the top 3, percent with 2 decimals. */
  solv: number;
  /** Mean rank over the points where the place appears; null when it appears nowhere. */
  arp: number | null;
  /** Mean rank over every point, not found counted as 21. */
  atrp: number;
  /** Points where the place is in the top 20. */
  found: number;
  points: number;
}

/** The metrics of one place over one or more keywords' rank lists (pooled point by point). */
export function gridMetrics(rankLists: Array<Array<number | null>>): GridMetrics {
  const ranks = rankLists.flat();
  const found = ranks.filter((r): r is number => r !== null);
  const n = ranks.length;
  return {
    solv: n ? round((100 * found.filter((r) => r <= TOP_RANKS).length) / n, 2) : 0,
    arp: found.length ? round(found.reduce((s, r) => s + r, 0) / found.length, 2) : null,
    atrp: n ? round(ranks.reduce<number>((s, r) => s + (r ?? NOT_FOUND_RANK), 0) / n, 2) : NOT_FOUND_RANK,
    found: found.length,
    points: n,
  };
}

// ---- the scan ------------------------------------------------------------------------------

/** Process-wide: the searches cache, calls per provider per UTC day, quota back-off. */
export class SearchLedger {
  private cache = new Map<string, string[]>();
  private daily = new Map<string, { day: string; calls: number }>();
  private backoffUntil = new Map<string, number>();

  get(key: string): string[] | undefined {
    return this.cache.get(key);
  }

  put(key: string, ids: string[]) {
    if (this.cache.size >= CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, ids);
  }

  /** Takes one call of the day's allowance; false when the cap is reached. */
  take(provider: string, day: string, cap: number): boolean {
    const d = this.daily.get(provider);
    const calls = d?.day === day ? d.calls : 0;
    if (calls >= cap) return false;
    this.daily.set(provider, { day, calls: calls + 1 });
    return true;
  }

  callsToday(provider: string, day: string): number {
    const d = this.daily.get(provider);
    return d?.day === day ? d.calls : 0;
  }

  backOff(provider: string, until: number) {
    this.backoffUntil.set(provider, until);
  }

  backedOffUntil(provider: string, now: number): number | null {
    const until = this.backoffUntil.get(provider);
    return until !== undefined && until > now ? until : null;
  }
}

export const processLedger = new SearchLedger();

export interface ScanSettings {
  tier: Tier;
  plan: GridPlan;
  callBudget: number;
  dailyCap: number;
  concurrency: number;
  ledger: SearchLedger;
}

export interface ScanInput {
  provider: PlacesProvider;
  providerLabel: string;
  center: Point;
  /** Distances of the competitors from the business (the grid's reach). */
  competitorMiles: number[];
  /** Keywords, most important first; the plan takes the first few. */
  keywords: string[];
  categoryId: string;
  /** The places to find in the answers: the business and its competitors. */
  places: RankQuery['places'];
  now: Date;
}

const cacheKey = (provider: string, keyword: string, p: Point, day: string) => `${provider}|${keyword.trim().toLowerCase()}|${p.latitude.toFixed(3)}|${p.longitude.toFixed(3)}|${day}`;

class StopScan extends Error {}

export async function scanGrid(input: ScanInput, settings: ScanSettings): Promise<VisibilityScan> {
  const { provider, now } = input;
  const geometry = gridGeometry(input.center, input.competitorMiles, settings.plan.size);
  const base = {
    provider: provider.name,
    sampleData: provider.name === 'sample',
    tier: settings.tier,
    size: geometry.size,
    radiusMiles: geometry.radiusMiles,
    spacingMiles: geometry.spacingMiles,
    basis: geometry.basis,
    center: { latitude: round3(input.center.latitude), longitude: round3(input.center.longitude) },
    points: geometry.points,
  };
  const notMeasured = (reason: string, calls = 0, cached = 0): VisibilityScan => ({ ...base, status: 'not_measured', reason, keywords: [], calls, cached });
  const unique = [...new Set(input.keywords.map((k) => k.trim().toLowerCase()).filter(Boolean))];
  if (!provider.rankAt) return notMeasured(`${input.providerLabel} offers no local search to rank places by.`);
  if (unique.length === 0) return notMeasured('There was no keyword to search for.');
  const pausedUntil = settings.ledger.backedOffUntil(provider.name, now.getTime());
  if (pausedUntil !== null) return notMeasured(`${input.providerLabel} refused searches for quota a short while ago; local searches resume after ${new Date(pausedUntil).toISOString().slice(11, 16)} UTC.`);

  const day = now.toISOString().slice(0, 10);
  const points = geometry.points;
  // Keywords the budget allows: each costs one search per point not already cached.
  const cost = (k: string) => points.filter((p) => !settings.ledger.get(cacheKey(provider.name, k, p, day))).length;
  const chosen: string[] = [];
  const cut: string[] = [];
  let planned = 0;
  for (const k of unique.slice(0, settings.plan.keywords)) {
    const c = cost(k);
    if (planned + c > settings.callBudget) cut.push(k);
    else {
      chosen.push(k);
      planned += c;
    }
  }
  if (chosen.length === 0) return notMeasured(`A ${geometry.size}×${geometry.size} grid needs ${cost(unique[0]!)} searches, more than the ${settings.callBudget} a report may make.`);

  const known = new Set(input.places.map((p) => p.placeId));
  let calls = 0;
  let cached = 0;
  let stop: string | null = null;
  let lastFailure = '';
  const failed = new Set<string>();
  const tasks = chosen.flatMap((keyword) => points.map((point, index) => ({ keyword, point, index })));
  const answers = new Map<string, string[][]>(chosen.map((k) => [k, points.map(() => [])]));
  let next = 0;
  const radiusMeters = Math.round(Math.max(0.5, geometry.spacingMiles / 2) * 1609.344);
  const worker = async () => {
    while (next < tasks.length && stop === null) {
      const t = tasks[next++]!;
      if (failed.has(t.keyword)) continue;
      const key = cacheKey(provider.name, t.keyword, t.point, day);
      const hit = settings.ledger.get(key);
      if (hit) {
        cached++;
        answers.get(t.keyword)![t.index] = hit;
        continue;
      }
      if (!settings.ledger.take(provider.name, day, settings.dailyCap)) {
        stop = `${input.providerLabel}'s daily allowance of ${settings.dailyCap} local searches is used up; local visibility is measured again tomorrow.`;
        break;
      }
      calls++;
      try {
        const ids = (await provider.rankAt!({ keyword: t.keyword, point: t.point, radiusMeters, categoryId: input.categoryId, places: input.places })).slice(0, GRID_DEPTH);
        settings.ledger.put(key, ids);
        answers.get(t.keyword)![t.index] = ids;
      } catch (error) {
        if (error instanceof ProviderError && error.kind === 'rate_limited') {
          settings.ledger.backOff(provider.name, now.getTime() + QUOTA_BACKOFF_MS);
          stop = `${input.providerLabel} refused the local searches (${describeFailure(error)}).`;
          throw new StopScan();
        }
        failed.add(t.keyword);
        lastFailure = describeFailure(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(settings.concurrency, tasks.length) }, () => worker().catch((e) => { if (!(e instanceof StopScan)) throw e; })));
  if (stop !== null) return notMeasured(stop, calls, cached);

  const keywords: KeywordGrid[] = chosen.filter((k) => !failed.has(k)).map((keyword) => {
    const lists = answers.get(keyword)!;
    const ranks: Record<string, Array<number | null>> = {};
    for (const id of known) ranks[id] = lists.map((ids) => { const i = ids.indexOf(id); return i < 0 ? null : i + 1; });
    return { keyword, ranks };
  });
  if (keywords.length === 0) return notMeasured(`${input.providerLabel} could not answer the local searches (${lastFailure}).`, calls, cached);
  const reasons: string[] = [];
  if (failed.size) reasons.push(`"${[...failed].join('", "')}" could not be searched (${lastFailure}) and is left out.`);
  if (cut.length) reasons.push(`"${cut.join('", "')}" would pass the ${settings.callBudget} searches a report may make and is left out.`);
  return { ...base, status: 'measured', reason: reasons.length ? reasons.join(' ') : null, keywords, calls, cached };
}

/** Each place's metrics over every keyword searched; null when the scan measured nothing. */
export function placeVisibility(scan: VisibilityScan | undefined, placeId: string): GridMetrics | null {
  if (!scan || scan.status !== 'measured' || scan.keywords.length === 0) return null;
  return gridMetrics(scan.keywords.map((k) => k.ranks[placeId] ?? scan.points.map(() => null)));
}
