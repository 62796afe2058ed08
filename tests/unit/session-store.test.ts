// The browser's session check (spec sections 7 and 9): cached 5 minutes across pages, no retry, a
// 401 is plainly signed out, any other failure is signed out and logged as 'Auth check error:'.
// Each test loads the store afresh, as a new page does; storage and cookies are the browser's.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SESSION_CACHE_MS } from '../../common/constants.ts';

const viewer = { user: { id: 'u1', email: 'a@example.com', role: 'client', subscriptionTier: 'free', subscriptionStatus: 'active' } };
let calls: string[] = [];
let answer: () => Response;

/** Web Storage as the browser has it: items are the object's own keys, methods are not. */
function storage() {
  const items: Record<string, string> = {};
  Object.defineProperties(items, {
    getItem: { value: (k: string) => (Object.hasOwn(items, k) ? items[k] : null) },
    setItem: { value: (k: string, v: string) => void (items[k] = String(v)) },
    removeItem: { value: (k: string) => void delete items[k] },
  });
  return items as unknown as Storage;
}

beforeEach(() => {
  vi.stubGlobal('sessionStorage', storage());
  vi.stubGlobal('localStorage', storage());
  vi.stubGlobal('document', { cookie: 'other=1; localrank_session=1' });
  calls = [];
  answer = () => Response.json(viewer);
  vi.stubGlobal('fetch', async (path: string) => (calls.push(path), answer()));
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

async function newPage() {
  vi.resetModules();
  return import('../../site/lib/session.ts');
}

describe('session check', () => {
  it('asks /api/auth/me once, then answers from the cache for 5 minutes across pages', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-23T12:00:00Z'), toFake: ['Date'] });
    expect(await (await newPage()).checkSession()).toMatchObject({ status: 'signed-in', user: { email: 'a@example.com' } });
    expect(calls).toEqual(['/api/auth/me']);
    vi.setSystemTime(Date.now() + SESSION_CACHE_MS - 1000);
    expect((await (await newPage()).checkSession()).status).toBe('signed-in');
    expect(calls).toHaveLength(1);
    vi.setSystemTime(Date.now() + 2000);
    await (await newPage()).checkSession();
    expect(calls).toHaveLength(2);
  });

  it('treats 401 as signed out without logging, and does not retry', async () => {
    answer = () => Response.json({ code: 'unauthenticated', message: 'Not authenticated' }, { status: 401 });
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await (await newPage()).checkSession()).toEqual({ status: 'signed-out' });
    expect(calls).toHaveLength(1);
    expect(log).not.toHaveBeenCalled();
  });

  it('treats any other failure as signed out, logs it as Auth check error:, and does not retry', async () => {
    answer = () => new Response('boom', { status: 500, statusText: 'Internal Server Error' });
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await (await newPage()).checkSession()).toEqual({ status: 'signed-out' });
    expect(calls).toHaveLength(1);
    expect(log).toHaveBeenCalledWith('Auth check error:', expect.objectContaining({ message: '500: boom' }));
  });

  it('asks nothing when this browser never signed in', async () => {
    vi.stubGlobal('document', { cookie: 'other=1' });
    expect(await (await newPage()).checkSession()).toEqual({ status: 'signed-out' });
    expect(calls).toEqual([]);
  });

  it('logout wipes the cache and every key of the product', async () => {
    const session = await newPage();
    await session.checkSession();
    sessionStorage.setItem('localrank.plan', 'pro');
    sessionStorage.setItem('elsewhere', 'kept');
    localStorage.setItem('localrank.draft', 'x');
    expect(sessionStorage.getItem('localrank.session')).not.toBeNull();
    session.clearSession();
    expect(sessionStorage.getItem('localrank.session')).toBeNull();
    expect(sessionStorage.getItem('localrank.plan')).toBeNull();
    expect(localStorage.getItem('localrank.draft')).toBeNull();
    expect(sessionStorage.getItem('elsewhere')).toBe('kept');
    expect(session.$session.get()).toEqual({ status: 'signed-out', loggedOut: true });
  });
});
