// The Early Warning screen's error matching (spec section 8) and labels.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../site/lib/api.ts';
import { FETCH_FALLBACK, loadErrorOf, PLAN_MESSAGE, platformLabel, reviewLink } from '../../site/islands/early-warning/early-warning-data.ts';

const api = (status: number, body: unknown) => new ApiError(status, 'x', typeof body === 'string' ? body : JSON.stringify(body));

describe('loadErrorOf', () => {
  it('maps 401 to Login Required, 404 or a not-found message to Business Not Found', () => {
    expect(loadErrorOf(api(401, { code: 'unauthenticated', message: 'Not authenticated' }))).toEqual({ kind: 'login' });
    expect(loadErrorOf(api(404, { code: 'not_found', message: 'Business not found' }))).toEqual({ kind: 'not-found' });
    expect(loadErrorOf(api(404, ''))).toEqual({ kind: 'not-found' });
    expect(loadErrorOf(api(400, { message: 'Thing not found' }))).toEqual({ kind: 'not-found' });
  });

  it("gives Access Denied the server's message, or the plan message, or the fetch fallback", () => {
    expect(loadErrorOf(api(403, { code: 'plan_required', message: 'Upgrade please' }))).toEqual({ kind: 'denied', message: 'Upgrade please' });
    expect(loadErrorOf(api(403, 'not json'))).toEqual({ kind: 'denied', message: PLAN_MESSAGE });
    expect(loadErrorOf(api(500, ''))).toEqual({ kind: 'denied', message: FETCH_FALLBACK });
    expect(loadErrorOf(new TypeError('Failed to fetch'))).toEqual({ kind: 'denied', message: FETCH_FALLBACK });
  });
});

it('labels platforms', () => {
  expect(['google', 'yelp', 'facebook', 'other', 'myspace'].map(platformLabel)).toEqual(['Google', 'Yelp', 'Facebook', 'Other', 'Other']);
});

it('links only to http(s) review addresses', () => {
  expect(reviewLink('https://maps.example/r/1')).toBe('https://maps.example/r/1');
  expect(reviewLink('javascript:alert(1)')).toBeNull();
  expect(reviewLink(null)).toBeNull();
});
