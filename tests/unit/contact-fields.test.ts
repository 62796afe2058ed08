// The business's contact fields are named once, by the request schema (issue 45): the analysis's
// input, `npm run report`'s input, the API's business summary and the intake's fingerprint take
// them from there; a report's Place is a provider's Listing with its category named for people.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { IdentifyQuery } from '../../api/report/analysis/providers/types.ts';
import type { RunOnceInput } from '../../api/report/run-once.ts';
import { type Listing, type Place, type ReportInput, reportInput } from '../../api/report/model/types.ts';
import type { BusinessSummary } from '../../api/services/businesses.ts';
import { requestFingerprint } from '../../api/services/report-requests.ts';
import { type BusinessContact, CONTACT_FIELDS, REQUEST_FIELDS, reportRequestSchema } from '../../common/schemas/report-request.ts';

// requestFingerprint of `contact` as owner, signed out, with the fields written out in their old order.
const FINGERPRINT = '1806e9f8b0a03522cb5ccbac6120e21db2c48f92e8bd9cfb04aa26c8b08203e0';
const contact: BusinessContact = { fullName: 'Ana Ruiz', email: 'ana@example.com', company: 'Ruiz Dental', website: 'https://ruiz.example', address: '1 Main St', city: 'Austin', state: 'TX', zip: '78701' };

describe('the contact fields', () => {
  it('are the request schema\'s fields but the role and the consent, in its order', () => {
    expect(REQUEST_FIELDS).toEqual(Object.keys(reportRequestSchema.shape).filter((key) => key !== 'consent'));
    expect(CONTACT_FIELDS).toEqual(['fullName', 'email', 'company', 'website', 'address', 'city', 'state', 'zip']);
  });

  it('are what the analysis reads of a stored business, and nothing else of its row', () => {
    expect(reportInput({ ...contact, id: 'b1', role: 'owner', userId: 'u1' } as BusinessContact & { id: string })).toEqual({ businessId: 'b1', ...contact });
  });

  it('are the types of every input that carries them', () => {
    expectTypeOf<RunOnceInput>().toEqualTypeOf<BusinessContact>();
    expectTypeOf<Omit<ReportInput, 'businessId'>>().toEqualTypeOf<BusinessContact>();
    expectTypeOf<Pick<IdentifyQuery, 'company' | 'address' | 'city' | 'state' | 'zip' | 'website'>>().toEqualTypeOf<Pick<BusinessContact, 'company' | 'address' | 'city' | 'state' | 'zip' | 'website'>>();
    expectTypeOf<Pick<BusinessSummary, 'company' | 'address' | 'city' | 'state' | 'zip' | 'website'>>().toEqualTypeOf<Pick<BusinessContact, 'company' | 'address' | 'city' | 'state' | 'zip' | 'website'>>();
    expectTypeOf<Omit<Place, 'category' | 'distanceMiles'>>().toEqualTypeOf<Omit<Listing, 'providerCategory' | 'categoryLabel'>>();
  });

  it('make the intake\'s fingerprint, in the order it always had', () => {
    const request = reportRequestSchema.parse({ ...contact, role: 'owner' });
    // The consent is no part of it; the value is the one the field list written out gave.
    expect(requestFingerprint({ ...request, consent: true }, null)).toBe(requestFingerprint(request, null));
    expect(requestFingerprint(request, null)).toBe(FINGERPRINT);
  });
});
