import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distanceMiles, geocode, GeocodeError, geocodeOffline } from '../../api/report/analysis/geocode.ts';

const austin = { address: '100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' };

describe('geocode offline', () => {
  it('uses the ZIP centroid', () => {
    const g = geocodeOffline(austin);
    expect(g.point).toEqual({ latitude: 30.2713, longitude: -97.7426, source: 'zip' });
    expect(g.zip).toBe('78701');
    expect(g.notes).toEqual([]);
  });

  it('accepts ZIP+4', () => {
    expect(geocodeOffline({ ...austin, zip: '78701-1234' }).point.source).toBe('zip');
  });

  it('falls back to the city with a note when the ZIP is unknown', () => {
    const g = geocodeOffline({ ...austin, zip: '00000' });
    expect(g.point.source).toBe('city');
    expect(g.city).toBe('Austin');
    expect(distanceMiles(g.point, { latitude: 30.2672, longitude: -97.7431 })).toBeLessThan(10);
    expect(g.notes[0]).toMatch(/ZIP code 00000 is not in the US ZIP code data.*Austin, TX/);
  });

  it('fails clearly when neither the ZIP nor the city is known', () => {
    expect(() => geocodeOffline({ ...austin, city: 'Nowhereville', zip: '00000' })).toThrow(GeocodeError);
  });

  it('measures great-circle miles', () => {
    // Austin to Dallas is about 182 miles as the crow flies.
    expect(distanceMiles({ latitude: 30.2672, longitude: -97.7431 }, { latitude: 32.7767, longitude: -96.797 })).toBeCloseTo(182, -1);
    expect(distanceMiles({ latitude: 1, longitude: 1 }, { latitude: 1, longitude: 1 })).toBe(0);
  });
});

describe('geocode online', () => {
  let server: Server;
  let base = '';
  let mode: 'ok' | 'zero' | 'error' | 'malformed' = 'ok';
  let lastQuery: URLSearchParams | null = null;
  beforeAll(async () => {
    server = createServer((req, res) => {
      lastQuery = new URL(req.url!, 'http://x').searchParams;
      if (mode === 'error') return res.writeHead(500).end('boom');
      if (mode === 'malformed') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"results": [');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(mode === 'zero' ? { status: 'ZERO_RESULTS', results: [] } : { status: 'OK', results: [{ geometry: { location: { lat: 30.26853, lng: -97.74298 } } }] }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/geocode/json`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('uses the geocoder when its key is set', async () => {
    mode = 'ok';
    const g = await geocode(austin, { GEOCODER_URL: base, GEOCODER_KEY: 'k1', PROVIDER_TIMEOUT_MS: 10_000 });
    expect(g.point).toEqual({ latitude: 30.26853, longitude: -97.74298, source: 'geocoder' });
    expect(lastQuery!.get('key')).toBe('k1');
    expect(lastQuery!.get('address')).toBe('100 Congress Ave, Austin, TX 78701');
  });

  it('ignores the geocoder without a key', async () => {
    const g = await geocode(austin, { GEOCODER_URL: base });
    expect(g.point.source).toBe('zip');
  });

  // A geocoder that answered is never "did not answer" (issue 46): no match, an error, an answer
  // that could not be read are each said for what they are.
  for (const [failure, words] of [['zero', 'found no match for the address'], ['error', 'answered with an error (HTTP 500)'], ['malformed', 'answered with something that could not be read']] as const) {
    it(`falls back to the ZIP centroid with a note when the geocoder answers ${failure}`, async () => {
      mode = failure;
      const g = await geocode(austin, { GEOCODER_URL: base, GEOCODER_KEY: 'k1', PROVIDER_TIMEOUT_MS: 10_000 });
      expect(g.point.source).toBe('zip');
      expect(g.notes.join(' ')).toContain(`The online geocoder ${words}; the location is the ZIP code's centre.`);
      expect(g.notes.join(' ')).not.toMatch(/did not answer/);
    });
  }

  it('a geocoder nobody answers for "did not answer"', async () => {
    const closed = `http://127.0.0.1:9/geocode/json`;
    const g = await geocode(austin, { GEOCODER_URL: closed, GEOCODER_KEY: 'k1', PROVIDER_TIMEOUT_MS: 2000 });
    expect(g.notes.join(' ')).toMatch(/^The online geocoder did not answer \(/);
  });
});
