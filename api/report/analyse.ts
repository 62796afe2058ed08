// The analysis pipeline: a report request in, ReportData out.
// geocode → identify the business and its category → discover competitors (top 9 by prominence
// within 20 miles) → reviews → websites (concurrently, through the safe fetcher) → data points →
// scores → rank → recommendations. An unreadable website or a failed reviews call never stops it:
// the data it would have given is marked missing and a note says why. A failed competitor search,
// or a transient failure (429, 5xx, timeout) of the business lookup, fails the stage
// (ProviderStageError) so the job retries: a report is never made against fewer places than exist.
import { COMPETITOR_COUNT, isMarket, MIN_MARKET_COMPETITORS, PRECISION, round, SEARCH_RADIUS_MILES } from '../../common/constants.ts';
import { sql } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import type { Env } from '../env.ts';
import { PermanentJobError } from '../jobs/errors.ts';
import { createProvider, providerFetch } from './analysis/providers/configured.ts';
import { safeFetch, type SafeFetchOptions } from '../lib/safe-fetch.ts';
import { categoryFromProvider, FALLBACK_CATEGORY, inferCategory, type Category } from './analysis/categories.ts';
import { collectMarket, reviewPositions, type EarlierCount, type MarketView, type SiteState, type Subject } from './analysis/data-points.ts';
import { distanceMiles, geocode, GeocodeError, roundMiles } from './analysis/geocode.ts';
import { describeFailure, isTransient, providerCapOf, ProviderStageError, type Listing, type ListingProfile, type PlacesProvider } from './analysis/providers/types.ts';
import { brandOf, samePlace } from './analysis/matching.ts';
import { analyseReviews, type ReviewAnalysis } from './analysis/reviews.ts';
import { SAMPLE_SITES_PATH, sampleSiteResponse } from './analysis/sample-sites.ts';
import { overallBasis, overallOf, ranksAmong, recommend, scorePlace } from './analysis/scoring.ts';
import { placeVisibility, processLedger, scanGrid, parseGridPlans, type SearchLedger, type VisibilityScan } from './analysis/visibility.ts';
import { analyseWebsite, type WebsiteAnalysis } from './analysis/website.ts';
import { platformOf } from './analysis/site-kind.ts';
import { payerOf } from '../services/plans/payers.ts';
import { profileReviewsForReport } from '../services/google-profile/report-reviews.ts';
import { competitorWebsitesSentence, websiteRead, websiteSentence } from './words/website-state.ts';
import type { Tier } from '../../common/constants.ts';
import type { AnalysedPlace, BrandBranches, ReportData, ReportInput, Review } from './model/types.ts';

export type AnalyseStage = 'geocode' | 'identify' | 'discover' | 'reviews' | 'websites' | 'visibility' | 'score';

export interface AnalyseOptions {
  /** The analysis time (review ages, copyright year); defaults to now. */
  now?: Date;
  /** Replaces the provider chosen by PLACES_PROVIDER (tests). */
  provider?: PlacesProvider;
  /** Overrides for the website fetcher, e.g. `allowLoopback` for tests with local fixture sites. */
  fetch?: Partial<SafeFetchOptions>;
  /** Used for the online geocoder and the google/yelp providers (tests). */
  fetchImpl?: typeof fetch;
  /** Stage timings (bench:analyse). */
  onStage?: (stage: AnalyseStage, ms: number) => void;
  /** The visibility grid's cache and daily counts; defaults to the process's (tests pass their own). */
  ledger?: SearchLedger;
}

/** The safe fetcher's options for this product: its limits, and its own sample sites answered
 *  in-process (decision 0041). */
export function siteFetchOptions(env: Env, now: Date, overrides: Partial<SafeFetchOptions> = {}): SafeFetchOptions {
  const prefix = `${env.PUBLIC_BASE_URL}${SAMPLE_SITES_PATH}`;
  return {
    timeoutMs: env.SITE_FETCH_TIMEOUT_MS,
    maxBytes: env.SITE_FETCH_MAX_BYTES,
    extraPorts: env.SITE_FETCH_PORTS,
    inProcess: { prefix, handle: (url) => sampleSiteResponse(url.pathname.slice(SAMPLE_SITES_PATH.length), now) },
    ...overrides,
  };
}

/** Run `fn` over `items` with at most `limit` at once, keeping the order. */
export async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  });
  await Promise.all(workers);
  return out;
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

async function guessCategory(input: ReportInput, fetchOptions: SafeFetchOptions): Promise<{ category: Category; from: 'name' | 'website' | 'fallback' }> {
  const byName = inferCategory(input.company);
  if (byName) return { category: byName, from: 'name' };
  // A platform's page (a Facebook page...) is never fetched, and says nothing of the business's trade.
  if (input.website && !platformOf(input.website)) {
    try {
      const res = await safeFetch(input.website, { ...fetchOptions, maxBytes: Math.min(fetchOptions.maxBytes ?? 2_000_000, 1_000_000), partial: true, countBytes: 0, certificates: 'report' });
      const text = res.text().replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/gi, ' ').replace(/<[^>]+>/g, ' ');
      const bySite = inferCategory(text, 2);
      if (bySite) return { category: bySite, from: 'website' };
    } catch {
      // The website stage reports an unreachable site; the category falls back.
    }
  }
  return { category: FALLBACK_CATEGORY, from: 'fallback' };
}

/** `state`: how the website was met (decision 0217), which the dashboard's website column names. */
function techStack(site: WebsiteAnalysis | null): Record<string, unknown> {
  if (!site) return { read: false, reason: 'no website listed', state: null };
  if (!site.reachable) return { read: false, reason: site.error, state: site.state };
  if (site.state === 'refused') return { read: false, reason: `refuses automated visitors: ${site.detail}`, state: site.state };
  if (!pageRead(site)) return { read: false, reason: site.detail, state: site.state };
  return { read: true, state: site.state, ...site.tech, https: site.https, viewport: site.viewport, schemaTypes: site.schemaTypes };
}

function velocity(r: ReviewAnalysis | null): Record<string, unknown> {
  if (!r) return { read: false };
  return { read: true, last30Days: r.last30, last90Days: r.last90, previous90Days: r.previous90, last365Days: r.last365, perMonth: r.monthlyVelocity, trend: r.velocityTrend, daysSinceLatest: r.daysSinceLatest, byMonth: r.byMonth };
}

/** Shares as fractions (0-1), like the rest of the JSON summaries; the data points carry percents. */
function sentiment(r: ReviewAnalysis | null): Record<string, unknown> {
  if (!r) return { read: false };
  const frac = (pct: number | null) => (pct === null ? null : round(pct / 100, 4));
  return {
    read: true,
    reviewsRead: r.sampled,
    average: r.sentimentAverage,
    positive: frac(r.positiveShare),
    neutral: frac(r.neutralShare),
    negative: frac(r.negativeShare),
    starShare: r.starShare,
    // The texts the shares were read from, and those in a language not measured (their stars
    // count in starShare all the same).
    sentimentMeasured: Object.values(r.languages).reduce((a, b) => a + b, 0) - r.sentimentNotMeasured,
    notMeasured: r.notMeasuredTexts,
    themes: { positive: r.positiveThemes.map((t) => t.theme), negative: r.negativeThemes.map((t) => t.theme) },
    themeCounts: { positive: r.positiveThemes, negative: r.negativeThemes },
    ownerResponseRate: r.responseRate,
    medianResponseHours: r.medianResponseHours,
  };
}

/** The page read is the business's own website (not a platform's page, a parking page, a
 *  placeholder or a password prompt). */
const pageRead = (site: WebsiteAnalysis) => siteStateOf(site) === 'read';
/** How the scoring meets a website (data-points.ts SiteState). */
export function siteStateOf(site: WebsiteAnalysis): SiteState {
  if (site.platform) return 'platform';
  if (site.state === 'parked' || site.state === 'placeholder' || site.state === 'password') return 'unpublished';
  return site.reachable ? 'read' : 'down';
}

function ads(site: WebsiteAnalysis | null): Record<string, unknown> {
  if (!site?.reachable || site.state === 'refused' || !pageRead(site)) return { read: false };
  return { read: true, ...site.ads, pixels: Object.values(site.ads).filter(Boolean).length };
}

/** Velocity from the change in the review count needs an interval long enough to mean something. */
export const VELOCITY_MIN_DAYS = 7;

/** Each place's review count at the latest run for this business at least VELOCITY_MIN_DAYS old
 *  (the business by its own place id, competitors by theirs): review velocity from the change in
 *  the count. */
async function earlierCounts(ctx: AppContext, businessId: string, ownPlaceId: string, now: Date): Promise<Map<string, EarlierCount>> {
  const before = now.getTime() - VELOCITY_MIN_DAYS * 86_400_000;
  const rows = await ctx.db.all<{ placeId: string | null; isMain: number; count: number | null; at: number }>(sql`
    SELECT c.place_id AS placeId, m.is_main_business AS isMain, m.reported_at AS at,
      (SELECT json_extract(j.value, '$.value') FROM json_each(m.data_points) j WHERE json_extract(j.value, '$.key') = 'reviews.count') AS count
    FROM business_metrics m LEFT JOIN competitors c ON c.id = m.competitor_id
    WHERE m.business_id = ${businessId} AND m.run_id = (
      SELECT run_id FROM business_metrics WHERE business_id = ${businessId} AND is_main_business = 1 AND reported_at <= ${before} ORDER BY reported_at DESC LIMIT 1)`);
  const out = new Map<string, EarlierCount>();
  for (const row of rows) {
    const placeId = row.isMain ? ownPlaceId : row.placeId;
    if (placeId && typeof row.count === 'number') out.set(placeId, { reviewCount: row.count, at: new Date(Number(row.at)) });
  }
  return out;
}

/** The grid's keywords, most important first: the category as people search it, then its
 *  services ("dentist", "teeth whitening"...). A business of no known category searches for the
 *  provider's own category name. */
export function gridKeywords(category: Category, providerLabel: string | null, chosen: string[] = []): string[] {
  const head = category.id === FALLBACK_CATEGORY.id && providerLabel ? providerLabel : category.label;
  return [...chosen, head, ...category.services].map((k) => k.toLowerCase());
}

/** The plan the grid is sized by (whoever pays for the business: its owner, else the consultant
 *  whose client it is; free for a visitor's business) and the keywords chosen for it on the
 *  dashboard or the client page. */
async function gridChoice(ctx: AppContext, businessId: string): Promise<{ tier: Tier; keywords: string[]; rankWithBranches: boolean }> {
  const [[row], { tier }] = await Promise.all([
    ctx.db.all<{ keywords: string | null; rankWithBranches: number | null }>(sql`SELECT b.visibility_keywords AS keywords, b.rank_with_branches AS rankWithBranches FROM businesses b WHERE b.id = ${businessId}`),
    payerOf(ctx, businessId),
  ]);
  let keywords: string[] = [];
  try {
    const parsed: unknown = row?.keywords ? JSON.parse(row.keywords) : [];
    if (Array.isArray(parsed)) keywords = parsed.filter((k): k is string => typeof k === 'string');
  } catch {
    // An unreadable value is no choice: the defaults.
  }
  // The owner's choice to count their brand's other locations in the rank is a paid setting: a
  // free report ranks against independent competitors first (decision 0235).
  return { tier, keywords, rankWithBranches: tier !== 'free' && Boolean(row?.rankWithBranches) };
}

/** The sentence the report's notes give the grid: its size, reach and cost, or why it is missing. */
function visibilityNote(scan: VisibilityScan, providerLabel: string): string {
  const searches = `${scan.calls} search${scan.calls === 1 ? '' : 'es'} sent to ${providerLabel}${scan.cached ? `, ${scan.cached} answered from searches made earlier today` : ''}`;
  if (scan.status !== 'measured') return `Local visibility: Not measured. ${scan.reason ?? ''} (${searches}.)`.replace(' (', ' (').trim();
  const kw = scan.keywords.map((k) => `"${k.keyword}"`).join(', ');
  return `Local visibility: a ${scan.size}×${scan.size} grid of local searches for ${kw}, ${scan.radiusMiles.toFixed(2)} miles each way from the business (points ${scan.spacingMiles.toFixed(2)} miles apart; ${scan.basis}); ${searches}.${scan.reason ? ` ${scan.reason}` : ''}`;
}

/** Whether the rank counts the brand's other locations: not unless the owner chose it, and
 *  always when without them fewer competitors than a market needs would be left. Null without
 *  any. */
export function brandBranches(brands: Array<string | null>, chosen: boolean): BrandBranches | null {
  const count = brands.filter(Boolean).length;
  if (count === 0) return null;
  if (chosen) return { count, counted: true, why: 'chosen' };
  if (isMarket(brands.length) && !isMarket(brands.length - count)) return { count, counted: true, why: 'too_few' };
  return { count, counted: false, why: 'default' };
}

/** The notes' sentence on the brand's other locations: how many, what told them, and the rank. */
function branchesNote(b: BrandBranches, brands: Array<string | null>): string {
  const by = [...new Set(brands.filter(Boolean))].map((k) => ({ name: 'the same name', website: 'the same brand website', phone: 'the same phone line' })[k!]);
  const head = `${b.count} of the ${brands.length} competitors ${b.count === 1 ? 'is another location' : 'are other locations'} of your brand (${by.join(', ')}), marked "your brand" and still listed: franchisees compete with them.`;
  if (b.why === 'chosen') return `${head} They count in your rank, as chosen for this business.`;
  if (b.why === 'too_few') return `${head} They count in your rank: without them fewer than ${MIN_MARKET_COMPETITORS} independent competitors would be left to rank you against.`;
  return `${head} Your rank compares you with the ${brands.length - b.count} independent competitor${brands.length - b.count === 1 ? '' : 's'} only; an owner on a paid plan can count the brand's locations from the dashboard.`;
}

export async function analyseBusiness(ctx: AppContext, input: ReportInput, options: AnalyseOptions = {}): Promise<ReportData> {
  const env = ctx.env;
  const now = options.now ?? new Date();
  const notes: string[] = [];
  const timed = async <T>(stage: AnalyseStage, fn: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await fn();
    } finally {
      options.onStage?.(stage, performance.now() - started);
    }
  };
  const fetchOptions = siteFetchOptions(env, now, options.fetch);
  // Every provider and geocoder call of the analysis passes the ledger (decision 0270).
  const fetchImpl = providerFetch(ctx, options.fetchImpl);
  const provider = options.provider ?? createProvider(env, now, fetchImpl);
  const providerLabel = { sample: 'the sample data provider', google: 'Google Places', yelp: 'Yelp' }[provider.name];

  // 1. Geocode.
  const geo = await timed('geocode', async () => {
    try {
      return await geocode(input, { GEOCODER_URL: env.GEOCODER_URL, GEOCODER_KEY: env.GEOCODER_KEY, PROVIDER_TIMEOUT_MS: env.PROVIDER_TIMEOUT_MS }, fetchImpl);
    } catch (error) {
      // Retrying cannot find a place that is not in the data.
      if (error instanceof GeocodeError) throw new PermanentJobError(error.message);
      throw error;
    }
  });
  notes.push(...geo.notes);
  const point = geo.point;

  // 2. Identify the business and its category.
  const { listing, listingFound, lookupFailed, category } = await timed('identify', async () => {
    const guess = await guessCategory(input, fetchOptions);
    let found: Listing | null = null;
    let lookupFailed = false;
    try {
      found = await provider.identify({ company: input.company, address: input.address, city: input.city, state: input.state, zip: input.zip, website: input.website, point, anchorZip: geo.zip, categoryId: guess.category.id });
      if (!found) notes.push(`${input.company} was not found on ${providerLabel} near ${input.city}, ${input.state}: a customer searching there does not find it, so its listing data points count as none.`);
    } catch (error) {
      // A quota, a timeout or a server error: the job retries later rather than report the
      // business unlisted.
      if (isTransient(error)) throw new ProviderStageError('identify', `${providerLabel} could not look up the business (${describeFailure(error)})`, { cause: error });
      lookupFailed = true;
      notes.push(`${providerLabel} could not look up the business (${describeFailure(error)}); its listing data is marked missing.`);
    }
    const fromProvider = provider.name === 'sample' ? null : categoryFromProvider(found?.providerCategory) ?? categoryFromProvider(found?.categoryLabel);
    const cat = fromProvider ?? guess.category;
    if (!fromProvider && guess.from === 'fallback') notes.push(`The business category could not be told from the company name or the website, so competitors are local businesses in general.`);
    const own: Listing = found ?? {
      placeId: `input:${input.businessId}`,
      name: input.company,
      address: `${input.address}, ${input.city}, ${input.state} ${input.zip}`,
      phone: null,
      website: input.website || null,
      rating: null,
      reviewCount: null,
      latitude: point.latitude,
      longitude: point.longitude,
      providerCategory: null,
      categoryLabel: cat.label,
    };
    return { listing: { ...own, website: input.website || own.website, categoryLabel: own.categoryLabel ?? cat.label }, listingFound: found !== null, lookupFailed, category: cat };
  });
  const home = { latitude: listingFound ? listing.latitude : point.latitude, longitude: listingFound ? listing.longitude : point.longitude };
  // A connected Google Business Profile (paid plans): the business's review figures are every
  // review's, newest first, not the listing's and its 5 relevance-picked ones (decision 0322).
  const ownProfile = listingFound ? await profileReviewsForReport(ctx, input.businessId) : null;
  if (ownProfile) {
    listing.rating = ownProfile.average;
    listing.reviewCount = ownProfile.count;
  }

  // 3. Competitors: the provider's order is prominence; keep those within the radius.
  const competitors = await timed('discover', async () => {
    try {
      const found = await provider.discover({
        point,
        categoryId: category.id,
        providerCategory: listingFound && provider.name !== 'sample' ? listing.providerCategory : null,
        radiusMiles: SEARCH_RADIUS_MILES,
        limit: COMPETITOR_COUNT,
        excludePlaceId: listing.placeId,
        anchorZip: geo.zip,
        city: geo.city,
        state: geo.state,
        company: input.company,
      });
      // The business's own listing is never its competitor, whatever name it goes by there.
      const own = listingFound
        ? { facts: { name: listing.name, phone: listing.phone, website: listing.website, address: listing.address, point: home }, contradictBy: undefined }
        : { facts: { name: input.company, website: input.website, address: input.address }, contradictBy: [] as const };
      const isOwn = (l: Listing) => l.placeId === listing.placeId || samePlace({ ...l, point: l }, own.facts, own.contradictBy);
      const within = found
        .map((l) => ({ listing: l, distance: roundMiles(distanceMiles(home, l)) }))
        .filter((c) => c.distance <= SEARCH_RADIUS_MILES && !isOwn(c.listing))
        .slice(0, COMPETITOR_COUNT);
      if (within.length < COMPETITOR_COUNT) notes.push(`${providerLabel} found ${within.length} ${category.label.toLowerCase()} competitor${within.length === 1 ? '' : 's'} within ${SEARCH_RADIUS_MILES} miles (the report compares up to ${COMPETITOR_COUNT}).`);
      return within;
    } catch (error) {
      // Without the competitors there is no rank and no share: a business compared with nobody
      // is not the leader of its market. The job retries with its back-off.
      throw new ProviderStageError('discover', `${providerLabel} could not list competitors (${describeFailure(error)})`, { cause: error });
    }
  });
  const all = [{ listing, distance: 0 }, ...competitors];

  // The business's other locations among them: same name, brand website or phone line.
  const brandFacts = listingFound
    ? { name: listing.name, otherNames: [input.company], phone: listing.phone, website: listing.website }
    : { name: input.company, website: input.website };
  const brands = competitors.map((c) => brandOf(brandFacts, c.listing));

  // Local visibility: the grid scan runs while the reviews and websites are read.
  const choice = gridChoice(ctx, input.businessId);
  choice.catch(() => {});
  const visibilityScan = timed('visibility', async () => {
    const plans = parseGridPlans(env.VISIBILITY_GRID)!;
    const { tier, keywords: chosen } = await choice;
    return scanGrid(
      {
        provider,
        providerLabel,
        center: home,
        competitorMiles: competitors.map((c) => c.distance),
        keywords: gridKeywords(category, listing.categoryLabel, chosen),
        categoryId: category.id,
        places: all.map(({ listing: l }) => ({ placeId: l.placeId, latitude: l.latitude, longitude: l.longitude, rating: l.rating, reviewCount: l.reviewCount })),
        now,
      },
      { tier, plan: plans[tier], callBudget: env.VISIBILITY_CALL_BUDGET, dailyCap: env.VISIBILITY_DAILY_CAP, concurrency: env.VISIBILITY_CONCURRENCY, ledger: options.ledger ?? processLedger },
    );
  });
  // Awaited before scoring; a rejection is never left unhandled meanwhile.
  visibilityScan.catch(() => {});

  // 4. Reviews. The business's own are kept for the Early Warning Monitor's alerts.
  let ownReviews: Review[] = [];
  const profiles: Array<ListingProfile | null> = all.map(() => null);
  const reviewResults = await timed('reviews', async () => {
    const failures: string[] = [];
    const results = await mapLimit(all, 4, async ({ listing: l }, i) => {
      if (i === 0 && !listingFound) return null;
      // The profile's reviews were alerted on by its own poll: the listing's are not read for it.
      if (i === 0 && ownProfile) return analyseReviews(ownProfile.reviews, { now, complete: true, ownerResponsesKnown: true, newestFirst: true });
      try {
        const r = await provider.reviews(l);
        if (i === 0) ownReviews = r.reviews;
        profiles[i] = r.profile ?? null;
        return analyseReviews(r.reviews, { now, complete: r.complete, ownerResponsesKnown: r.ownerResponsesKnown, newestFirst: r.newestFirst });
      } catch (error) {
        // The provider's cap on the account: the rest would be refused too; the report waits.
        if (providerCapOf(error)) throw error;
        failures.push(describeFailure(error));
        return null;
      }
    });
    if (failures.length) notes.push(`Reviews could not be read for ${failures.length} of ${all.length} businesses (${failures[0]}); their review details are marked unknown.`);
    if (provider.name === 'google' && results.some(Boolean)) notes.push('Google shares up to 5 reviews per business, the ones it finds most relevant, and no owner replies: sentiment, star shares and themes are read from those few reviews; counts of recent reviews and owner-reply figures cannot be measured from them and are left out for every business.');
    if (provider.name === 'yelp' && results.some(Boolean)) notes.push('Yelp shares a few of the newest reviews per business (3 on most plans) and no owner replies: sentiment, star shares and themes are read from those few reviews; owner-reply figures are left out for every business.');
    const notYetOpen = all.filter((_, i) => profiles[i]?.status === 'future_opening').map((p) => p.listing.name);
    if (ownProfile) notes.push(`Your own review figures (rating, count, recent reviews, stars, sentiment, themes and owner replies) are read from every one of your ${ownProfile.count} reviews, from your Google Business Profile${ownProfile.sample ? ' (the Sample Business Profile: example reviews, not your real profile)' : ''}; the competitors' come from ${providerLabel}. A figure ${providerLabel} gives for none of the competitors is left out for you too, so the scores compare like with like.`);
    if (notYetOpen.length) notes.push(`${notYetOpen.join(', ')} ${notYetOpen.length === 1 ? 'is' : 'are'} listed by ${providerLabel} as not open yet: whether ${notYetOpen.length === 1 ? 'it operates does' : 'they operate do'} not apply until ${notYetOpen.length === 1 ? 'it opens' : 'they open'}.`);
    return results;
  });

  // 5. Websites, concurrently with a limit.
  const sites = await timed('websites', () =>
    mapLimit(all, env.SITE_FETCH_CONCURRENCY, async ({ listing: l }) => (l.website ? analyseWebsite(l.website, fetchOptions) : null)),
  );
  const ownSite = sites[0];
  if (ownSite?.state === 'down') notes.push(`Your website (${input.website}) did not answer when we visited (${ownSite.detail ?? ownSite.error}): it is scored as down, as a visitor would find it.`);
  if (ownSite?.state === 'error_page') notes.push(`Your website (${input.website}) answered with an error page when we visited (${ownSite.detail ?? ownSite.error}): a visitor finds no site, so it is scored as down.`);
  if (!ownSite) notes.push('No website was given for the business: its website data points are scored as absent.');
  const noSite = sites.slice(1).filter((s) => !s).length;
  if (noSite > 0) notes.push(provider.name === 'yelp' ? 'Yelp does not give the websites of businesses, so the competitors\' websites are unknown and their Digital Presence and Customer Engagement read "Not enough data".' : `${noSite} competitor${noSite === 1 ? ' has' : 's have'} no website on ${providerLabel}.`);
  const siteState = (i: number): SiteState => {
    const site = sites[i];
    if (site) return siteStateOf(site);
    return i > 0 && provider.name === 'yelp' ? 'unknown' : 'none';
  };
  const reviewSource = (i: number) => {
    const n = reviewResults[i]?.sampled ?? 0;
    if (i === 0 && ownProfile) return `every one of the ${n} review${n === 1 ? '' : 's'} on your Google Business Profile, newest first`;
    if (provider.name === 'google') return `the ${n} review${n === 1 ? '' : 's'} Google shares (its up to 5 most relevant)`;
    if (provider.name === 'yelp') return `the ${n} newest review${n === 1 ? '' : 's'} Yelp shares`;
    return `the ${n} newest sample reviews`;
  };

  const visibility = await visibilityScan;
  notes.push(visibilityNote(visibility, providerLabel));

  // 6. Data points, scores, rank, recommendations.
  return timed('score', async () => {
    const earlier = await earlierCounts(ctx, input.businessId, listing.placeId, now);
    const reviewCounts = all.map((p) => p.listing.reviewCount).filter((n): n is number => n !== null);
    const ratings = all.map((p) => p.listing.rating).filter((n): n is number => n !== null);
    const totalReviews = reviewCounts.reduce((s, n) => s + n, 0);
    const read = reviewResults.filter((r): r is ReviewAnalysis => r !== null);
    const totalLast90 = read.length > 0 && read.every((r) => r.exactDays >= 90) ? read.reduce((s, r) => s + r.last90, 0) : null;
    const prominence = (l: Listing) => (l.reviewCount ?? 0) ** 0.6 * (l.rating ?? 0) ** 2;
    const order = all.map((p, i) => ({ i, v: prominence(p.listing) })).sort((a, b) => b.v - a.v || a.i - b.i);
    // The business's own count is unknown when the provider does not list it.
    const positions = reviewPositions(all.map((p, i) => (i === 0 && !listingFound ? null : p.listing.reviewCount)));

    const subjects: Subject[] = all.map((p, i) => {
      const others = all.filter((_, j) => j !== i).map((o) => distanceMiles(p.listing, o.listing));
      const market: MarketView = {
        places: all.length,
        totalReviews,
        totalLast90,
        medianReviewCount: median(reviewCounts),
        averageRating: ratings.length ? round(ratings.reduce((s, n) => s + n, 0) / ratings.length, 2) : null,
        nearestOtherMiles: others.length ? roundMiles(Math.min(...others)) : null,
        othersWithin5: others.filter((d) => d <= 5).length,
        prominencePosition: order.findIndex((o) => o.i === i) + 1,
        reviewPosition: positions[i] ?? null,
        competitors: competitors.length,
      };
      const subject: Subject = {
        listing: p.listing,
        listingFound: i === 0 ? listingFound : true,
        lookupFailed: i === 0 && lookupFailed,
        distanceMiles: p.distance,
        reviews: reviewResults[i] ?? null,
        reviewSource: reviewSource(i),
        ...(i === 0 && ownProfile ? { ownSource: true } : {}),
        site: sites[i] ?? null,
        siteState: siteState(i),
        listingGivesWebsite: provider.name !== 'yelp',
        earlier: earlier.get(p.listing.placeId) ?? null,
        profile: profiles[i] ?? null,
        market,
        local: { city: input.city, categoryWords: [category.label, ...category.keywords, ...(listing.categoryLabel ? [listing.categoryLabel] : [])] },
        visibility: placeVisibility(visibility, p.listing.placeId),
        now,
      };
      return subject;
    });
    // One basis for all: a point the provider gives for no business is left out for every one.
    const pointsOf = collectMarket(subjects, providerLabel);

    const analysed: AnalysedPlace[] = all.map((p, i) => {
      const dataPoints = pointsOf[i]!;
      const { scores, breakdown } = scorePlace(dataPoints);
      return {
        place: {
          placeId: p.listing.placeId,
          name: p.listing.name,
          address: p.listing.address,
          phone: p.listing.phone,
          website: p.listing.website,
          rating: p.listing.rating === null ? null : round(p.listing.rating, PRECISION.reviewRating),
          reviewCount: p.listing.reviewCount,
          latitude: round(p.listing.latitude, PRECISION.latitude),
          longitude: round(p.listing.longitude, PRECISION.longitude),
          category: p.listing.categoryLabel ?? category.label,
          distanceMiles: p.distance,
        },
        isMainBusiness: i === 0,
        scores,
        breakdown,
        rank: 0,
        dataPoints,
        techStack: techStack(sites[i] ?? null),
        reviewVelocity: velocity(reviewResults[i] ?? null),
        sentiment: sentiment(reviewResults[i] ?? null),
        ads: ads(sites[i] ?? null),
        ...(sites[i] ? { website: websiteRead(sites[i]!, dataPoints) } : {}),
        ...(i > 0 && brands[i - 1] ? { brand: brands[i - 1]! } : {}),
      };
    });
    // How each website was met, when not read in full: the business's in its own words, the
    // competitors' in one note, each with its reason (decision 0217).
    const ownWords = analysed[0]!.website && analysed[0]!.website.state !== 'down' && analysed[0]!.website.state !== 'error_page' ? websiteSentence(analysed[0]!) : null;
    if (ownWords) notes.push(ownWords);
    // The overall compares every place on the same scores: those most places have a number for.
    const basis = overallBasis(analysed.map((a) => a.scores));
    for (const a of analysed) a.scores.overall = overallOf(a.scores, basis);
    const branches = brandBranches(brands, (await choice).rankWithBranches);
    const r = ranksAmong(analysed.map((a) => a.scores.overall), analysed.map((a) => branches?.counted !== false || !a.brand));
    analysed.forEach((a, i) => (a.rank = r[i]!));
    if (branches) notes.push(branchesNote(branches, brands));
    const LABEL = { reviews: 'Online Reviews', digitalPresence: 'Digital Presence', engagement: 'Customer Engagement', marketShare: 'Market Share' } as const;
    if (basis.length === 0) notes.push('Too little could be measured for most businesses to give an overall score or a rank.');
    else if (!isMarket(competitors.length)) {
      const found = competitors.length === 0 ? `No ${category.label.toLowerCase()} competitor was found within ${SEARCH_RADIUS_MILES} miles` : `Only ${competitors.length} ${category.label.toLowerCase()} competitor${competitors.length === 1 ? ' was' : 's were'} found within ${SEARCH_RADIUS_MILES} miles`;
      notes.push(`${found}: a rank, a share of the market and the Market Share score need at least ${MIN_MARKET_COMPETITORS} (decision 0216), so the report gives none of them. The overall score is the weighted mean of ${basis.map((k) => LABEL[k]).join(', ')}, their weights rescaled to add up to 100%.`);
    } else if (basis.length < 4) notes.push(`The overall score and the rank compare ${basis.map((k) => LABEL[k]).join(' and ')} only: the other scores could not be measured for most businesses.`);
    const noOverall = analysed.filter((a) => a.scores.overall === null).length;
    if (basis.length > 0 && noOverall > 0) notes.push(`${noOverall} business${noOverall === 1 ? ' has' : 'es have'} "Not enough data" for an overall score and ${noOverall === 1 ? 'is' : 'are'} listed after those that have one, without a rank.`);

    const competitorSites = competitorWebsitesSentence(analysed.slice(1));
    if (competitorSites) notes.push(competitorSites);

    return {
      generatedAt: now.toISOString(),
      provider: provider.name,
      sampleData: provider.name === 'sample',
      notes,
      location: point,
      category: category.label,
      radiusMiles: SEARCH_RADIUS_MILES,
      business: analysed[0]!,
      competitors: analysed.slice(1),
      recommendations: recommend(analysed[0]!.dataPoints, 5, { competitors: analysed.slice(1).map((a) => a.dataPoints), sourceLabel: providerLabel }),
      visibility,
      ...(branches ? { branches } : {}),
      ownReviews,
    };
  });
}

