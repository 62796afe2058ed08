import { describe, expect, it } from 'vitest';
import { SUBSCRIPTION_STATUSES } from '../../common/constants.ts';
import { can, effectiveTier, entitlements } from '../../api/services/plans/entitlements.ts';

const allowed = (tier: string, status = 'active') =>
  Object.entries(entitlements({ subscriptionTier: tier, subscriptionStatus: status }))
    .filter(([, yes]) => yes)
    .map(([feature]) => feature);

describe('entitlements', () => {
  it('gives each plan what spec section 6 lists', () => {
    expect(allowed('free')).toEqual([]);
    expect(allowed('pro')).toEqual(['dashboard', 'trends', 'monthlyReports', 'clientManagement']);
    expect(allowed('enterprise')).toEqual(['dashboard', 'trends', 'monthlyReports', 'earlyWarning', 'api', 'clientManagement']);
    expect(allowed('agency')).toEqual(['dashboard', 'trends', 'monthlyReports', 'earlyWarning', 'api', 'clientManagement', 'whiteLabel', 'widget']);
  });

  it('counts a paid tier while its status is active, or past due within the grace period', () => {
    expect(can({ subscriptionTier: 'enterprise', subscriptionStatus: 'past_due' }, 'earlyWarning')).toBe(true);
    for (const status of SUBSCRIPTION_STATUSES.filter((s) => s !== 'active' && s !== 'past_due')) {
      expect(effectiveTier({ subscriptionTier: 'agency', subscriptionStatus: status })).toBe('free');
      expect(can({ subscriptionTier: 'enterprise', subscriptionStatus: status }, 'earlyWarning')).toBe(false);
    }
    expect(can({ subscriptionTier: 'enterprise', subscriptionStatus: 'active' }, 'earlyWarning')).toBe(true);
  });

  it('treats an unknown tier as free', () => {
    expect(effectiveTier({ subscriptionTier: 'platinum', subscriptionStatus: 'active' })).toBe('free');
    expect(allowed('platinum')).toEqual([]);
  });
});
