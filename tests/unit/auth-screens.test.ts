// Pure rules behind the login, sign-up and account screens.
import { describe, expect, it } from 'vitest';
import { signupFormSchema } from '../../common/schemas/auth.ts';
import { hasSessionHint } from '../../common/session-hint.ts';
import { accountTier, billingHref, quickActions } from '../../site/islands/account/quick-actions.ts';
import { salesMailto, subscribeStep } from '../../site/islands/subscribe/subscribe-steps.ts';
import { carriedQuery, destinationAfterAuth, isSameSitePath, loginFor } from '../../site/lib/auth-redirect.ts';
import type { Viewer } from '../../site/lib/session.ts';

describe('destinationAfterAuth (spec section 2)', () => {
  it.each([
    ['', null, '/account'],
    ['?redirect=subscribe&plan=pro', null, '/subscribe?plan=pro'],
    ['?redirect=subscribe', 'enterprise', '/subscribe?plan=enterprise'],
    ['?redirect=subscribe&plan=agency', 'pro', '/subscribe?plan=agency'],
    ['?redirect=subscribe', null, '/account'],
    ['?redirect=subscribe&plan=', null, '/account'],
    ['?plan=pro', 'pro', '/account'],
    ['?redirect=subscribe&plan=a%26b%3Dc', null, '/subscribe?plan=a%26b%3Dc'],
    ['?redirect=%2Fdashboard%2F42%3FconsultantId%3Dx', null, '/dashboard/42?consultantId=x'],
    ['?redirect=%2F%2Fevil.example', null, '/account'],
    ['?redirect=%2F%5Cevil.example', null, '/account'],
    ['?redirect=https%3A%2F%2Fevil.example', null, '/account'],
    ['?redirect=javascript%3Aalert(1)', null, '/account'],
  ])('%s (stored %s) → %s', (search, stored, to) => {
    expect(destinationAfterAuth(search, stored)).toBe(to);
  });

  it('accepts only paths of this site', () => {
    expect(isSameSitePath('/account')).toBe(true);
    expect(isSameSitePath('//x.example/a')).toBe(false);
    expect(isSameSitePath('account')).toBe(false);
  });

  it('carries redirect and plan between login and sign-up, nothing else', () => {
    expect(carriedQuery('?redirect=subscribe&plan=pro&utm=x')).toBe('?redirect=subscribe&plan=pro');
    expect(carriedQuery('?utm=x')).toBe('');
    expect(loginFor('/account?x=1')).toBe('/login?redirect=%2Faccount%3Fx%3D1');
  });
});

describe('hasSessionHint', () => {
  it('finds the hint among other cookies and nothing else', () => {
    expect(hasSessionHint('a=b; localrank_session=1; c=d')).toBe(true);
    expect(hasSessionHint('localrank_session=1')).toBe(true);
    expect(hasSessionHint('')).toBe(false);
    expect(hasSessionHint('localrank_session=')).toBe(false);
    expect(hasSessionHint('xlocalrank_session=1')).toBe(false);
  });
});

const viewer = (role: string, tier: string, status = 'active', consultant = role === 'consultant'): Viewer => ({
  user: { id: 'u', email: 'a@b.c', role, subscriptionTier: tier, subscriptionStatus: status, createdAt: '2026-01-01T00:00:00Z' },
  ...(consultant ? { consultant: { id: 'c', companyName: 'Acme', subscriptionTier: tier, subscriptionStatus: status } } : {}),
});
const keys = (v: Viewer) => quickActions(v).map((a) => (a.href ? `${a.key}:${a.href}` : `${a.key}:disabled`));

describe('account quick actions (spec sections 2 and 6)', () => {
  it('free consultant: Manage Clients disabled (a paid plan opens it), no Branding, Billing to the pro plan', () => {
    expect(keys(viewer('consultant', 'free'))).toEqual(['dashboard:/dashboard', 'report:/#report-form', 'clients:disabled', 'billing:/subscribe?plan=pro']);
  });
  it('pro consultant: Manage Clients opens /clients; no Branding', () => {
    expect(keys(viewer('consultant', 'pro'))).toEqual(['dashboard:/dashboard', 'report:/#report-form', 'clients:/clients', 'billing:/subscribe?plan=pro']);
  });
  it('agency consultant: Manage Clients, Branding Settings and Website Widget open their screens; disabled while the plan is not active', () => {
    expect(keys(viewer('consultant', 'agency'))).toEqual(['dashboard:/dashboard', 'report:/#report-form', 'clients:/clients', 'branding:/branding', 'widget:/widget', 'billing:/subscribe?plan=agency']);
    expect(keys(viewer('consultant', 'agency', 'suspended'))).toEqual(['dashboard:/dashboard', 'report:/#report-form', 'clients:disabled', 'branding:disabled', 'widget:disabled', 'billing:/subscribe?plan=agency']);
  });
  it('client: no Manage Clients; Billing to their own paid tier', () => {
    expect(keys(viewer('client', 'enterprise'))).toEqual(['dashboard:/dashboard', 'report:/#report-form', 'billing:/subscribe?plan=enterprise']);
    expect(billingHref(viewer('client', 'free'))).toBe('/subscribe?plan=pro');
    expect(billingHref(viewer('client', 'pro'))).toBe('/subscribe?plan=pro');
  });
  it("the consultant profile's tier counts; an unknown tier is treated as free", () => {
    const v = viewer('consultant', 'pro');
    v.consultant!.subscriptionTier = 'agency';
    expect(accountTier(v)).toBe('agency');
    expect(accountTier(viewer('client', 'platinum'))).toBe('free');
  });
});

describe('signupFormSchema', () => {
  const ok = { email: 'a@b.co', password: 'longenough', confirmPassword: 'longenough', role: 'consultant', companyName: 'Acme', acceptTerms: true };
  const messages = (input: object) => {
    const r = signupFormSchema.safeParse(input);
    return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [String(i.path[0]), i.message]));
  };
  it('accepts a complete consultant and a client without company', () => {
    expect(messages(ok)).toEqual({});
    expect(messages({ ...ok, role: 'client', companyName: '' })).toEqual({});
  });
  it('reports every message at once, cross-field ones included', () => {
    expect(messages({ email: '', password: 'short', confirmPassword: 'other', role: 'consultant', companyName: '  ', acceptTerms: false })).toEqual({
      email: 'Required',
      password: 'Password must be at least 8 characters long',
      confirmPassword: 'Passwords do not match',
      companyName: 'Company name is required for consultants',
      acceptTerms: 'You must be 18 or older and accept the Terms of Service',
    });
  });
});

describe('subscribeStep (spec section 2, subscribe flow)', () => {
  const signedIn = { status: 'signed-in' as const, ...viewer('client', 'free') };
  it('follows the spec order', () => {
    expect(subscribeStep(null, signedIn)).toEqual({ kind: 'home' });
    expect(subscribeStep('free', signedIn)).toEqual({ kind: 'home' });
    expect(subscribeStep('agency', { status: 'signed-out' })).toEqual({ kind: 'sales' });
    expect(subscribeStep('pro', { status: 'loading' })).toEqual({ kind: 'checking' });
    expect(subscribeStep('pro', { status: 'signed-out' })).toEqual({ kind: 'login', plan: 'pro' });
    expect(subscribeStep('pro', { status: 'signed-out', loggedOut: true })).toEqual({ kind: 'checking' });
    expect(subscribeStep('enterprise', signedIn)).toEqual({ kind: 'checkout', plan: 'enterprise' });
  });
  it('drafts the sales e-mail for the plan', () => {
    expect(salesMailto('agency')).toBe('mailto:sales@localrank.app?subject=LocalRank%20Agency%20plan&body=' + encodeURIComponent('Hello,\n\nI would like to subscribe to the LocalRank Agency plan.\n\nThank you.'));
    expect(decodeURIComponent(salesMailto('pro', 'a@b.c'))).toContain('My account: a@b.c');
  });
});
