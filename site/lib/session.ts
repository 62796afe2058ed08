// The session store shared by every island. The check runs once, is cached for 5 minutes (in
// sessionStorage, so it survives page loads), is never retried and never refetched on focus.
// Without the session hint cookie (set by the API on login/sign-up) no check is made at all.
import { atom } from 'nanostores';
import { SESSION_CACHE_MS } from '../../common/constants.ts';
import { hasSessionHint } from '../../common/session-hint.ts';
import { ApiError, apiRequest } from './api.ts';

export interface SessionUser {
  id: string;
  email: string;
  role: string;
  subscriptionTier: string;
  subscriptionStatus: string;
  createdAt: string;
}
export interface SessionConsultant {
  id: string;
  companyName: string;
  subscriptionTier: string;
  subscriptionStatus: string;
}
export interface Viewer {
  user: SessionUser;
  consultant?: SessionConsultant;
}
/** `loggedOut` marks a sign-out by the user here: the page is on its way home, so protected
 *  screens do not send it to /login instead. */
export type SessionState = { status: 'loading' } | { status: 'signed-out'; loggedOut?: true } | ({ status: 'signed-in' } & Viewer);

/** Every key this product keeps in the browser starts with this; logout wipes them all. */
export const STORAGE_PREFIX = 'localrank.';
const CACHE_KEY = `${STORAGE_PREFIX}session`;

export const $session = atom<SessionState>({ status: 'loading' });

function readCache(): SessionState | null {
  try {
    const raw = sessionStorage.getItem(CACHE_KEY);
    if (!raw) return null;
    const { at, state } = JSON.parse(raw) as { at: number; state: SessionState };
    return Date.now() - at < SESSION_CACHE_MS ? state : null;
  } catch {
    return null;
  }
}

function writeCache(state: SessionState) {
  try {
    sessionStorage.setItem(CACHE_KEY, JSON.stringify({ at: Date.now(), state }));
  } catch {
    /* storage unavailable (private mode): the check simply runs again next page */
  }
}

let inFlight: Promise<SessionState> | null = null;

export function checkSession(): Promise<SessionState> {
  const current = $session.get();
  if (current.status !== 'loading') return Promise.resolve(current);
  // Nobody signed in from this browser (no hint cookie): signed out, without asking the API.
  if (!hasSessionHint(document.cookie)) {
    $session.set({ status: 'signed-out' });
    return Promise.resolve($session.get());
  }
  const cached = readCache();
  if (cached) {
    $session.set(cached);
    return Promise.resolve(cached);
  }
  inFlight ??= askServer();
  return inFlight;
}

function askServer(): Promise<SessionState> {
  return apiRequest<Viewer>('GET', '/api/auth/me')
    .then((viewer): SessionState => ({ status: 'signed-in', ...viewer }))
    .catch((error): SessionState => {
      if (!(error instanceof ApiError && error.status === 401)) console.error('Auth check error:', error);
      return { status: 'signed-out' };
    })
    .then((state) => {
      writeCache(state);
      $session.set(state);
      return state;
    });
}

let refreshing: Promise<SessionState> | null = null;

/** The session as the server has it now, past the 5-minute cache: asked by a screen whose cached
 *  plan does not open it (the plan may have changed since: a checkout, a renewal, a lapse), once a
 *  page. The store and the cache take the answer, so the top bar follows. */
export function refreshSession(): Promise<SessionState> {
  if (!hasSessionHint(document.cookie)) return checkSession();
  // A check that asked the server on this page already has the answer.
  refreshing ??= inFlight ?? askServer();
  return refreshing;
}

/** After login or sign-up: set the user and consultant, and refresh the cached check. */
export function setSignedIn(viewer: Viewer) {
  const state: SessionState = { status: 'signed-in', ...viewer };
  writeCache(state);
  $session.set(state);
}

/** After logout: no user, no consultant, and every cached piece of data wiped. */
export function clearSession() {
  try {
    for (const key of Object.keys(sessionStorage)) if (key.startsWith(STORAGE_PREFIX)) sessionStorage.removeItem(key);
    for (const key of Object.keys(localStorage)) if (key.startsWith(STORAGE_PREFIX)) localStorage.removeItem(key);
  } catch {
    /* storage unavailable */
  }
  inFlight = null;
  refreshing = null;
  $session.set({ status: 'signed-out', loggedOut: true });
}
