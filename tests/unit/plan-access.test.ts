// The plan rule has three readers (decision 0226): the server (api/services/plans/entitlements.ts and
// consultant-access.ts), the screens (site/lib/plan-access.ts, asked before any call) and the top
// bar (the tiers written into each link at build time, read by site/lib/auth-links-dom.ts). For
// every feature, tier, status and role they must say the same thing, or a screen would call what
// the server refuses (a 403) or lock what it allows.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { can, FEATURES } from '../../api/services/plans/entitlements.ts';
import { TIERS } from '../../common/constants.ts';
import { markOf } from '../../site/lib/auth-links-dom.ts';
import { accessOf, planOpening, plansIncluding } from '../../site/lib/plan-access.ts';
import type { Viewer } from '../../site/lib/session.ts';

const STATUSES = ['active', 'past_due', 'suspended', 'canceled', 'incomplete'];
const CONSULTANT_ONLY = new Set(['clientManagement', 'whiteLabel', 'widget']);

const viewer = (role: string, subscriptionTier: string, subscriptionStatus: string): Viewer => ({
  user: { id: 'u', email: 'a@example.com', role, subscriptionTier, subscriptionStatus, createdAt: '2026-01-01' },
});

describe('plan access', () => {
  it('the least plan of each screen', () => {
    expect(planOpening('dashboard')).toBe('pro');
    expect(planOpening('clientManagement')).toBe('pro');
    expect(planOpening('earlyWarning')).toBe('enterprise');
    expect(planOpening('api')).toBe('enterprise');
    expect(planOpening('whiteLabel')).toBe('agency');
    expect(planOpening('widget')).toBe('agency');
    expect(plansIncluding('earlyWarning')).toBe('enterprise agency');
  });

  for (const feature of FEATURES) {
    it(`${feature}: the screen, the bar and the server agree for every role, tier and status`, () => {
      for (const role of ['consultant', 'client']) {
        for (const tier of [...TIERS, 'unknown']) {
          for (const status of STATUSES) {
            const server = can({ subscriptionTier: tier, subscriptionStatus: status }, feature) && (role === 'consultant' || !CONSULTANT_ONLY.has(feature));
            const access = accessOf(viewer(role, tier, status), feature);
            const where = `${role} ${tier} ${status}`;
            expect(access.open, where).toBe(server);
            if (!access.open && access.reason === 'plan') {
              // The plan offered opens the screen once active; a renewal is of the viewer's own plan.
              expect(can({ subscriptionTier: access.plan, subscriptionStatus: 'active' }, feature), where).toBe(true);
              expect(access.renew, where).toBe(can({ subscriptionTier: tier, subscriptionStatus: 'active' }, feature));
              if (access.renew) expect(access.plan).toBe(tier);
            }
            // The bar's mark (its links for consultant screens are shown to consultants only).
            if (role === 'consultant' || !CONSULTANT_ONLY.has(feature)) {
              const mark = markOf(plansIncluding(feature), { subscriptionTier: tier, subscriptionStatus: status });
              expect(mark === null, where).toBe(server);
              if (mark && !access.open && access.reason === 'plan') expect(mark, where).toEqual({ plan: access.plan, renew: access.renew });
            }
          }
        }
      }
    });
  }
});

describe('the plan rule has no other copy', () => {
  it('no list of tiers written out in the site or the API (a fourth reader would drift: issue 47 found one)', () => {
    const root = join(import.meta.dirname, '../..');
    const files = ['site', 'api'].flatMap((dir) => readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' }).filter((f) => /\.(ts|tsx|astro)$/.test(f)).map((f) => join(dir, f)));
    const tierList = new RegExp(`\\[\\s*'(${TIERS.join('|')})'(\\s*,\\s*'(${TIERS.join('|')})')+\\s*\\]`);
    expect(files.filter((f) => tierList.test(readFileSync(join(root, f), 'utf8')))).toEqual([]);
  });
});
