// The address pre-rendered pages are built for must be the one the server runs under, with the
// same default as api/env.ts, or `npm start` serves canonical links to the wrong host.
import { expect, it } from 'vitest';
import { loadEnv } from '../../api/env.ts';
import { expectedSiteUrl } from '../../scripts/build-if-needed.ts';

it.each([
  [{}, 'http://localhost:4321'],
  [{ PORT: '5000' }, 'http://localhost:5000'],
  [{ PUBLIC_BASE_URL: 'https://localrank.app/' }, 'https://localrank.app'],
  [{ PUBLIC_BASE_URL: 'https://localrank.app', PORT: '8080' }, 'https://localrank.app'],
])('%j → %s, as the server settings resolve it', (env, expected) => {
  expect(expectedSiteUrl(env)).toBe(expected);
  expect(loadEnv(env).PUBLIC_BASE_URL).toBe(expected);
});
