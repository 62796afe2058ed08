// The offline sample provider (PLACES_PROVIDER=sample, the default): a plausible local market,
// deterministic for a given input. Competitors sit at real nearby ZIP centroids within the radius,
// with names in the category's vocabulary, addresses, phones, ratings, review counts, a year of
// dated reviews of varied sentiment, and websites served by the product (sample-sites.ts).
// Every report made from it says it is sample data.
import zipcodes, { type ZipInfo } from 'zipcodes';
import type { Review } from '../../model/types.ts';
import { categoryById, type Category } from '../categories.ts';
import { distanceMiles } from '../geocode.ts';
import { createRng, hashString, type Rng } from '../random.ts';
import { sampleSiteUrl } from '../sample-sites.ts';
import { LISTING_ATTRIBUTES, type DiscoverQuery, type IdentifyQuery, type Listing, type ListingProfile, type PlacesProvider, type RankQuery, type ReviewsResult } from './types.ts';

const STREETS = ['Main St', 'Oak Ave', 'Maple Dr', 'Commerce Blvd', 'Park Ave', 'Elm St', 'Lakeview Dr', 'Market St', 'Cedar Ln', 'Highland Ave', 'Washington Ave', 'Mill Rd', 'Pecan St', 'Ridge Rd', 'Broadway', 'Church St'];
const FIRST = ['Maria', 'James', 'Linda', 'Robert', 'Priya', 'Michael', 'Sarah', 'David', 'Wei', 'Jennifer', 'Carlos', 'Emily', 'Ahmed', 'Jessica', 'Daniel', 'Ashley', 'Kevin', 'Olivia', 'Luis', 'Hannah'];
const LAST = 'ABCDEFGHJKLMNPRSTVW';

/** The sample grid: how fast a place's standing falls off with distance, and how many other
 *  local listings compete at every point. */
const SAMPLE_FALLOFF_MILES = 1.2;
const SAMPLE_OTHER_LISTINGS = 12;

/** Sample listings carry what the sample reviews need, in the place id. */
const REVIEW_HORIZON_DAYS = 365;
/** The day the quiet sample businesses' review streams are counted back from (when they became fixed). */
const QUIET_SINCE = Date.UTC(2026, 10, 27);

function phoneFor(r: Rng): string {
  return `(${r.pick(['512', '737', '214', '713', '210', '312', '415', '617', '303', '206'])}) 555-01${String(r.int(0, 99)).padStart(2, '0')}`;
}

function round1(x: number) {
  return Math.round(x * 10) / 10;
}

// zipcodes.radius scans the whole ZIP table; markets around one ZIP are asked for again and again.
const nearCache = new Map<string, ZipInfo[]>();
function zipsNear(zip: string, miles: number): ZipInfo[] {
  const key = `${zip}|${miles}`;
  let hit = nearCache.get(key);
  if (!hit) {
    hit = zipcodes.radius(zip, miles, true).filter((z) => Number.isFinite(z.latitude));
    if (nearCache.size >= 500) nearCache.delete(nearCache.keys().next().value!);
    nearCache.set(key, hit);
  }
  return hit;
}

export interface SampleOptions {
  /** Where the product is reached: the sample websites live under it. */
  origin: string;
  now: Date;
}

interface Seeded {
  rating: number;
  reviewCount: number;
  /** 0-1: share of reviews the owner answers. */
  responsiveness: number;
  /** 0-1: how recent the reviews are (1 = steady flow, 0 = went quiet months ago). */
  activity: number;
}

function seededStats(r: Rng): Seeded {
  const rating = round1(Math.min(4.9, Math.max(2.8, 3.2 + r.next() * 1.7 + (r.chance(0.2) ? -0.4 : 0))));
  const reviewCount = Math.round(8 + Math.exp(r.next() * 6.2));
  return { rating, reviewCount, responsiveness: r.chance(0.35) ? 0 : r.next() * 0.9, activity: r.next() };
}

function encodePlaceId(prefix: string, seed: number, stats: Seeded, category: string) {
  return `${prefix}-${seed.toString(36)}-${category}-${Math.round(stats.rating * 10)}-${stats.reviewCount}-${Math.round(stats.responsiveness * 100)}-${Math.round(stats.activity * 100)}`;
}

function decodePlaceId(id: string): { seed: number; stats: Seeded; category: Category } | null {
  const m = /^sample-(?:b|c)-([0-9a-z]+)-([a-z_]+)-(\d+)-(\d+)-(\d+)-(\d+)$/.exec(id);
  if (!m) return null;
  return {
    seed: parseInt(m[1]!, 36),
    category: categoryById(m[2]!),
    stats: { rating: Number(m[3]) / 10, reviewCount: Number(m[4]), responsiveness: Number(m[5]) / 100, activity: Number(m[6]) / 100 },
  };
}

/** Two different items of a list (a review never says the same thing twice). */
function pickTwo<T>(r: Rng, items: readonly T[]): [T, T] {
  const first = r.int(0, items.length - 1);
  const second = (first + 1 + r.int(0, Math.max(0, items.length - 2))) % items.length;
  return [items[first]!, items[second]!];
}

/** A sample review in a customer's voice: an opening, what happened, and (often) a closing line. */
export function reviewText(r: Rng, stars: number, category: Category): string {
  const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
  const [p1, p2] = pickTwo(r, category.praise);
  const [c1, c2] = pickTwo(r, category.complaints);
  const close = (lines: string[]) => (r.chance(0.6) ? ` ${r.pick(lines)}` : '');
  if (stars >= 5) return `${r.pick(['Excellent experience!', 'Highly recommend.', 'Could not be happier.', 'Wonderful from start to finish.'])} ${cap(p1)} and ${p2}.${close(['Will be back.', 'Thank you!', 'Already told my friends.', 'Five stars, easily.'])}`;
  if (stars === 4) return `${r.pick(['Good experience overall.', 'Very good.', 'Happy with the service.'])} ${cap(p1)}, though ${c1}.${close(['Still recommend them.', 'Would go again.', 'Minor gripe, good place.'])}`;
  if (stars === 3) return `${r.pick(['It was okay.', 'Mixed feelings.', 'Average visit.'])} ${cap(p1)}, but ${c1}.${close(['Might try them again.', 'Not sure I will return.'])}`;
  if (stars === 2) return `${r.pick(['Disappointed.', 'Not great.', 'Frustrating visit.'])} ${cap(c1)}, and ${c2}.${close(['Expected better.', 'Probably going elsewhere next time.'])}`;
  return `${r.pick(['Terrible experience.', 'Would not recommend.', 'Very unhappy.'])} ${cap(c1)}. On top of that, ${c2}.${close(['Never again.', 'Avoid.'])}`;
}

/** A Google-like listing profile for a sample place: hours, photos, a description, attributes. */
function sampleProfile(seed: number): ListingProfile {
  const r = createRng(seed ^ 0x51ed270b);
  const days = r.pick([5, 5, 6, 6, 7]);
  const attributes: NonNullable<ListingProfile['attributes']> = {};
  for (const name of LISTING_ATTRIBUTES) if (r.chance(0.55)) attributes[name] = name === 'acceptsCashOnly' || name.startsWith('paid') || name === 'valetParking' ? r.chance(0.15) : r.chance(0.8);
  return {
    status: r.chance(0.96) ? 'operational' : 'closed_temporarily',
    hours: r.chance(0.85) ? { days, weeklyHours: days * r.pick([8, 8.5, 9, 10]) } : null,
    photos: r.chance(0.1) ? 0 : r.int(1, 10),
    types: r.int(2, 6),
    editorialSummary: r.chance(0.4),
    priceLevel: r.chance(0.5) ? r.pick(['inexpensive', 'moderate', 'expensive']) : null,
    attributes,
  };
}

function starsAround(r: Rng, rating: number): number {
  // A skewed draw whose mean is close to the listing's rating.
  const u = r.next();
  const spread = rating >= 4.5 ? 0.6 : rating >= 4 ? 1.1 : 1.6;
  const s = Math.round(rating + (u - 0.5) * 2 * spread + (r.chance(0.06) ? -2 : 0));
  return Math.min(5, Math.max(1, s));
}

export function sampleProvider(options: SampleOptions): PlacesProvider {
  const { origin, now } = options;

  function listingFor(prefix: 'b' | 'c', seed: number, fields: Omit<Listing, 'placeId' | 'rating' | 'reviewCount' | 'providerCategory' | 'categoryLabel'>, category: Category, stats: Seeded): Listing {
    return {
      placeId: encodePlaceId(`sample-${prefix}`, seed, stats, category.id),
      ...fields,
      rating: stats.rating,
      reviewCount: stats.reviewCount,
      providerCategory: category.id,
      categoryLabel: category.label,
    };
  }

  return {
    name: 'sample',

    // The grid: the report's places among other local listings of the sample's own, ranked by
    // prominence falling off with distance from the point and a per-keyword affinity;
    // deterministic for a keyword and point.
    async rankAt(q: RankQuery): Promise<string[]> {
      const at = `${q.keyword.trim().toLowerCase()}|${q.point.latitude.toFixed(3)}|${q.point.longitude.toFixed(3)}`;
      const falloff = (miles: number) => 1 / (1 + (miles / SAMPLE_FALLOFF_MILES) ** 2);
      const strength = (reviews: number, rating: number) => Math.log1p(reviews) * rating;
      const scored = q.places.map((p) => {
        const affinity = 0.6 + createRng(hashString(`${q.keyword.trim().toLowerCase()}|${p.placeId}`)).next() * 0.8;
        return { id: p.placeId, score: strength(p.reviewCount ?? 0, p.rating ?? 3) * affinity * falloff(distanceMiles(q.point, p)) };
      });
      const r = createRng(hashString(at));
      for (let i = 0; i < SAMPLE_OTHER_LISTINGS; i++) {
        scored.push({ id: `sample-other-${hashString(`${at}|${i}`).toString(36)}`, score: strength(Math.exp(r.next() * 6.2), 3 + r.next() * 1.9) * falloff(0.4 + r.next() * 3.6) });
      }
      return scored.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id)).slice(0, 20).map((x) => x.id);
    },

    async identify(q: IdentifyQuery): Promise<Listing> {
      const category = categoryById(q.categoryId);
      const seed = hashString(`${q.company.trim().toLowerCase()}|${q.zip.trim()}|${category.id}`);
      const r = createRng(seed);
      const stats = seededStats(r);
      return listingFor('b', seed, {
        name: q.company.trim(),
        address: `${q.address.trim()}, ${q.city.trim()}, ${q.state.trim().toUpperCase()} ${q.zip.trim()}`,
        phone: phoneFor(r),
        website: q.website.trim() || null,
        latitude: q.point.latitude,
        longitude: q.point.longitude,
      }, category, stats);
    },

    async discover(q: DiscoverQuery): Promise<Listing[]> {
      const category = categoryById(q.categoryId);
      const marketSeed = hashString(`${q.company.trim().toLowerCase()}|${q.anchorZip ?? `${q.city}|${q.state}`}|${category.id}|market`);
      const r = createRng(marketSeed);
      const nearby = q.anchorZip ? [...zipsNear(q.anchorZip, Math.max(1, q.radiusMiles - 1))] : [];
      // Real towns only: the ZIP data also names single-organisation ZIPs ("State Board Of Insurance").
      const towns = new Map<string, number>();
      for (const z of nearby) towns.set(z.city, (towns.get(z.city) ?? 0) + 1);
      const anchorCity = q.anchorZip ? zipcodes.lookup(q.anchorZip)?.city : undefined;
      const realTowns = nearby.filter((z) => (towns.get(z.city) ?? 0) >= 2 || z.city === anchorCity);
      if (realTowns.length > 0) nearby.splice(0, nearby.length, ...realTowns);
      nearby.sort((a, b) => a.zip.localeCompare(b.zip));
      const used = new Set<string>([q.company.trim().toLowerCase()]);
      const out: Listing[] = [];
      const candidates = q.limit + 3;
      for (let i = 0; out.length < candidates && i < candidates * 6; i++) {
        const name = r.chance(0.25) && nearby.length > 0 ? `${r.pick(nearby).city} ${r.pick(category.suffixes)}` : `${r.pick(category.nameStems)} ${r.pick(category.suffixes)}`;
        if (used.has(name.toLowerCase())) continue;
        used.add(name.toLowerCase());
        const seed = hashString(`${marketSeed}|${i}`);
        const pr = createRng(seed);
        const zip = nearby.length > 0 ? pr.pick(nearby) : null;
        let lat = (zip?.latitude ?? q.point.latitude) + (pr.next() - 0.5) * 0.02;
        let lon = (zip?.longitude ?? q.point.longitude) + (pr.next() - 0.5) * 0.02;
        if (!zip) {
          // No ZIP neighbours: scatter within the radius around the point.
          const miles = 0.3 + pr.next() * (q.radiusMiles - 1);
          const bearing = pr.next() * 2 * Math.PI;
          lat = q.point.latitude + (miles / 69) * Math.cos(bearing);
          lon = q.point.longitude + (miles / (69 * Math.cos((q.point.latitude * Math.PI) / 180))) * Math.sin(bearing);
        }
        if (distanceMiles(q.point, { latitude: lat, longitude: lon }) > q.radiusMiles - 0.05) continue;
        const stats = seededStats(pr);
        const phone = phoneFor(pr);
        const street = `${pr.int(100, 9899)} ${pr.pick(STREETS)}`;
        const locality = `${zip?.city ?? q.city}, ${zip?.state ?? q.state.toUpperCase()} ${zip?.zip ?? q.anchorZip ?? ''}`.trim();
        const address = `${street}, ${locality}`;
        const hasSite = pr.chance(0.88);
        out.push(
          listingFor('c', seed, {
            name,
            address,
            phone,
            website: hasSite ? sampleSiteUrl(origin, { n: name, a: address, p: phone, c: category.id, q: seed }) : null,
            latitude: lat,
            longitude: lon,
          }, category, stats),
        );
      }
      // Prominence: a provider's blend of rating and volume.
      const prominence = (l: Listing) => (l.reviewCount ?? 0) ** 0.6 * (l.rating ?? 0) ** 2;
      return out.filter((l) => l.placeId !== q.excludePlaceId).sort((a, b) => prominence(b) - prominence(a)).slice(0, q.limit);
    },

    async reviews(place: Listing): Promise<ReviewsResult> {
      const decoded = decodePlaceId(place.placeId);
      if (!decoded) return { reviews: [], complete: false, ownerResponsesKnown: true, newestFirst: true };
      const { seed, stats, category } = decoded;
      // Each business has one stream of reviews in real time, the same on every fetch: review k is
      // dated about k mean gaps after the epoch, and drawn from its own seed, so a review keeps its
      // date, author and words for ever and a check an hour later sees only the reviews written
      // since (issue 37: re-dated reviews were stored and e-mailed again). Active businesses get
      // reviews up to today; quiet ones stopped on a day of their own (quietDays before
      // QUIET_SINCE), and stay stopped. The newest n within the last year are listed.
      const n = Math.min(stats.reviewCount, 60);
      const quietDays = Math.round((1 - stats.activity) ** 3 * 240);
      const gapMs = ((REVIEW_HORIZON_DAYS - quietDays) * 86_400_000) / Math.max(1, n);
      const end = quietDays >= 14 ? Math.min(now.getTime(), QUIET_SINCE - quietDays * 86_400_000) : now.getTime();
      const horizon = now.getTime() - REVIEW_HORIZON_DAYS * 86_400_000;
      const reviews: Review[] = [];
      for (let k = Math.floor(end / gapMs); reviews.length < n && k > 0; k--) {
        const r = createRng(`${seed}:review:${k}`);
        const date = new Date(Math.floor(((k + r.next()) * gapMs) / 1000) * 1000);
        if (date.getTime() > end) continue;
        if (date.getTime() < horizon) break;
        const stars = starsAround(r, stats.rating);
        const answered = r.chance(stars <= 2 ? Math.min(1, stats.responsiveness + 0.15) : stats.responsiveness);
        const responseHours = r.int(2, stars <= 2 ? 48 : 160);
        const responseDate = new Date(date.getTime() + responseHours * 3_600_000);
        reviews.push({
          rating: stars,
          text: reviewText(r, stars, category),
          author: `${r.pick(FIRST)} ${LAST[r.int(0, LAST.length - 1)]}.`,
          date: date.toISOString(),
          url: null,
          // An answer not yet written (its time still to come) is not shown.
          ownerResponse: answered && responseDate.getTime() <= now.getTime()
            ? { date: responseDate.toISOString(), text: stars >= 4 ? `Thank you for the kind words, we look forward to seeing you again!` : `We are sorry to hear this. Please call us so we can make it right.` }
            : null,
        });
      }
      reviews.sort((a, b) => b.date.localeCompare(a.date));
      return { reviews, complete: n === stats.reviewCount, ownerResponsesKnown: true, newestFirst: true, profile: sampleProfile(seed) };
    },
  };
}
