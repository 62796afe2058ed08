import { describe, expect, it } from 'vitest';
import { sameName as sameBusiness } from '../../api/report/analysis/matching.ts';
import { sampleProvider } from '../../api/report/analysis/providers/sample.ts';
import { analyseReviews, sentimentOf } from '../../api/report/analysis/reviews.ts';
import { categoryFromProvider, inferCategory } from '../../api/report/analysis/categories.ts';
import type { Review } from '../../api/report/model/types.ts';

const NOW = new Date('2026-11-22T12:00:00Z');
const daysAgo = (d: number) => new Date(NOW.getTime() - d * 86_400_000).toISOString();
const review = (rating: number, text: string, age: number, responseHours?: number): Review => ({
  rating,
  text,
  author: null,
  date: daysAgo(age),
  url: null,
  ownerResponse: responseHours === undefined ? null : { date: new Date(Date.parse(daysAgo(age)) + responseHours * 3_600_000).toISOString(), text: 'Thanks' },
});

describe('sentiment', () => {
  it('scores praise positive and complaints negative', () => {
    expect(sentimentOf('Excellent service, friendly staff, highly recommend').score).toBeGreaterThan(0);
    expect(sentimentOf('Terrible experience, rude staff and a mess').score).toBeLessThan(0);
    expect(sentimentOf('We went on Tuesday').score).toBe(0);
  });
});

describe('review analysis', () => {
  const reviews = [
    review(5, 'Excellent, friendly staff and spotless office.', 3, 10),
    review(5, 'Great team, explained everything, friendly staff.', 20, 30),
    review(4, 'Good, fast service.', 45),
    review(1, 'Terrible wait, rude front desk, overcharged on the bill.', 60, 4),
    review(2, 'Disappointed: rude staff and surprise charges on the bill.', 100),
    review(3, 'It was okay.', 200),
    review(5, 'Wonderful.', 400),
  ];
  const a = analyseReviews(reviews, { now: NOW, complete: true, ownerResponsesKnown: true });

  it('counts velocity and recency', () => {
    expect(a.last30).toBe(2);
    expect(a.last90).toBe(4);
    expect(a.previous90).toBe(1);
    expect(a.last365).toBe(6);
    expect(a.daysSinceLatest).toBe(3);
    expect(a.velocityTrend).toBe(3);
    expect(a.byMonth).toHaveLength(12);
  });

  it('computes the star distribution and sentiment shares', () => {
    expect(a.starShare).toEqual({ 1: 14.29, 2: 14.29, 3: 14.29, 4: 14.29, 5: 42.86 });
    expect(a.sampledAverage).toBe(3.57);
    expect(a.positiveShare! + a.negativeShare! + a.neutralShare!).toBeCloseTo(100, 1);
    expect(a.negativeShare).toBeGreaterThan(0);
  });

  it('finds recurring themes', () => {
    expect(a.positiveThemes[0]).toEqual({ theme: 'staff', count: 2 });
    expect(a.negativeThemes.map((t) => t.theme)).toEqual(expect.arrayContaining(['price', 'staff']));
  });

  it('measures owner responses, or leaves them out when the source does not report them', () => {
    expect(a.responseRate).toBe(42.86);
    expect(a.negativeResponseRate).toBe(50);
    expect(a.medianResponseHours).toBe(10);
    const unknown = analyseReviews(reviews, { now: NOW, complete: false, ownerResponsesKnown: false });
    expect(unknown.responseRate).toBeNull();
    expect(unknown.medianResponseHours).toBeNull();
  });

  it('handles no reviews', () => {
    const none = analyseReviews([], { now: NOW, complete: true, ownerResponsesKnown: true });
    expect(none.daysSinceLatest).toBeNull();
    expect(none.positiveShare).toBeNull();
    expect(none.last30).toBe(0);
  });
});

describe('the sample provider', () => {
  it('makes reviews of varied sentiment spread across a year', async () => {
    const p = sampleProvider({ origin: 'http://localhost:4321', now: NOW });
    const point = { latitude: 30.2713, longitude: -97.7426, source: 'zip' as const };
    const competitors = await p.discover({ point, categoryId: 'dentist', providerCategory: null, radiusMiles: 20, limit: 9, excludePlaceId: null, anchorZip: '78701', city: 'Austin', state: 'TX', company: 'Acme Dental' });
    expect(competitors).toHaveLength(9);
    const all = (await Promise.all(competitors.map((c) => p.reviews(c)))).flatMap((r) => r.reviews);
    const ratings = new Set(all.map((r) => r.rating));
    expect(ratings.size).toBeGreaterThanOrEqual(4);
    const ages = all.map((r) => (NOW.getTime() - Date.parse(r.date)) / 86_400_000);
    expect(Math.min(...ages)).toBeLessThan(30);
    expect(Math.max(...ages)).toBeGreaterThan(300);
    expect(Math.max(...ages)).toBeLessThanOrEqual(366);
    const sentiments = all.map((r) => sentimentOf(r.text).score);
    expect(sentiments.some((s) => s > 0) && sentiments.some((s) => s < 0)).toBe(true);
    // Deterministic.
    const again = await p.discover({ point, categoryId: 'dentist', providerCategory: null, radiusMiles: 20, limit: 9, excludePlaceId: null, anchorZip: '78701', city: 'Austin', state: 'TX', company: 'Acme Dental' });
    expect(again).toEqual(competitors);
  });

  it('keeps each review as it was on every later fetch: same date, author, words and answer; later ones are new (issue 37)', async () => {
    const fetchAt = async (now: Date) => {
      const p = sampleProvider({ origin: 'http://localhost:4321', now });
      const point = { latitude: 30.2713, longitude: -97.7426, source: 'zip' as const };
      const places = await p.discover({ point, categoryId: 'dentist', providerCategory: null, radiusMiles: 20, limit: 9, excludePlaceId: null, anchorZip: '78701', city: 'Austin', state: 'TX', company: 'Acme Dental' });
      return (await Promise.all(places.map(async (c) => (await p.reviews(c)).reviews.map((r) => ({ place: c.placeId, ...r }))))).flat();
    };
    const key = (r: { place: string; author: string | null; date: string; rating: number }) => `${r.place}|${r.author}|${r.date}|${r.rating}`;
    const first = await fetchAt(NOW);
    for (const later of [new Date(NOW.getTime() + 3_600_000), new Date(NOW.getTime() + 7 * 86_400_000)]) {
      const next = await fetchAt(later);
      const before = new Map(first.map((r) => [key(r), r]));
      // Every review of the later fetch dated up to the first fetch was in it, unchanged but for an
      // answer written since; the others are dated after it.
      for (const r of next) {
        if (Date.parse(r.date) > NOW.getTime()) continue;
        const seen = before.get(key(r));
        const oldest = Math.min(...first.filter((f) => f.place === r.place).map((f) => Date.parse(f.date)));
        if (Date.parse(r.date) < oldest) continue; // beyond the first fetch's 60 newest
        expect(seen, key(r)).toBeDefined();
        expect(r.text).toBe(seen!.text);
        if (seen!.ownerResponse) expect(r.ownerResponse).toEqual(seen!.ownerResponse);
      }
    }
    const weekLater = await fetchAt(new Date(NOW.getTime() + 7 * 86_400_000));
    expect(weekLater.some((r) => Date.parse(r.date) > NOW.getTime())).toBe(true);
  });
});

describe('matching and categories', () => {
  it('matches the same business, not a neighbour sharing a category word', () => {
    expect(sameBusiness('Acme Dental', 'Acme Dental Care')).toBe(true);
    expect(sameBusiness('Bright Smile Dental, LLC', 'Bright Smile Dental')).toBe(true);
    expect(sameBusiness('Bright Smile Dental', 'Congress Dental')).toBe(false);
  });

  it('infers categories from names and provider types', () => {
    expect(inferCategory('Hometown Plumbing & Drain')?.id).toBe('plumber');
    expect(inferCategory('Acme Holdings')).toBeNull();
    expect(categoryFromProvider('dentist')?.id).toBe('dentist');
    expect(categoryFromProvider('car_repair')?.id).toBe('auto_repair');
    expect(categoryFromProvider('generaldentistry')?.id).toBe('dentist');
  });
});

describe('yelp dates', () => {
  it('reads time_created as US Pacific time, summer and winter', async () => {
    const { yelpTime } = await import('../../api/report/analysis/providers/yelp.ts');
    expect(yelpTime('2026-07-01 10:00:00')!.toISOString()).toBe('2026-07-01T17:00:00.000Z');
    expect(yelpTime('2026-01-15 10:00:00')!.toISOString()).toBe('2026-01-15T18:00:00.000Z');
    expect(yelpTime('not a date')).toBeNull();
  });
});
