// Which SKU a Places API (New) call is billed as, by its endpoint and the costliest field of its mask.
import { describe, expect, it } from 'vitest';
import { DETAIL_FIELDS } from '../../api/report/analysis/providers/google.ts';
import { maskTier, skuOf } from '../../api/lib/provider-prices.ts';

const sku = (path: string, mask: string) => skuOf(new URL(`https://places.googleapis.com${path}`), new Headers({ 'x-goog-fieldmask': mask }), null)?.sku;

describe('maskTier', () => {
  it('bills a mask at its costliest field, and every field at its own tier', () => {
    expect(maskTier('id,name,attributions,movedPlace,movedPlaceId')).toBe('ids_only');
    expect(maskTier('id,formattedAddress,location')).toBe('essentials');
    for (const field of ['openingDate', 'timeZone', 'searchUri', 'displayName']) expect(maskTier(`id,${field}`), field).toBe('pro');
    for (const field of ['rating', 'websiteUri', 'regularOpeningHours']) expect(maskTier(`id,displayName,${field}`), field).toBe('enterprise');
    for (const field of ['reviews', 'evChargeAmenitySummary', 'neighborhoodSummary', 'reviewSummary']) expect(maskTier(`id,rating,${field}`), field).toBe('atmosphere');
    expect(maskTier('*')).toBe('atmosphere');
  });

  it("counts a search's photos as Pro and Place Details' as IDs Only", () => {
    expect(maskTier('id,photos', 'details')).toBe('ids_only');
    expect(maskTier('places.id,places.photos.name', 'search')).toBe('pro');
  });
});

describe('skuOf', () => {
  it('names the SKU of each call the Google provider makes', () => {
    expect(sku('/v1/places:searchText', 'places.id')).toBe('google.text_search.ids_only');
    expect(sku('/v1/places:searchText', 'places.id,nextPageToken')).toBe('google.text_search.ids_only');
    expect(sku('/v1/places:searchText', 'places.id,places.displayName,places.rating')).toBe('google.text_search.enterprise');
    expect(sku('/v1/places:searchNearby', 'places.id')).toBe('google.nearby_search.pro');
    expect(sku('/v1/places/abc', DETAIL_FIELDS.join(','))).toBe('google.place_details.atmosphere');
    expect(sku('/v1/places/abc', 'id,timeZone')).toBe('google.place_details.pro');
  });
});
