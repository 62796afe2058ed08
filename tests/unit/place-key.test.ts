// What makes two written addresses one place (api/lib/place-key.ts, decision 0212).
import { describe, expect, it } from 'vitest';
import { isListingId, placeKey, postalKey, streetKey } from '../../api/lib/place-key.ts';

const same = (a: string, b: string) => expect(streetKey(a), `${a} ≡ ${b}`).toBe(streetKey(b));
const differ = (a: string, b: string) => expect(streetKey(a), `${a} ≠ ${b}`).not.toBe(streetKey(b));

describe('placeKey', () => {
  it('folds case, spacing, punctuation and the usual abbreviations of English addresses', () => {
    same('100 Congress Ave.', '100  congress AVENUE');
    same('1200 Barton Springs Rd', '1200 Barton Springs Road');
    same('12 N. Main St', '12 North Main Street');
    same('5th Ave', 'Fifth Avenue');
    same('455 W Boulevard Dr', '455 West Blvd. Drive');
    same('12B Baker St', '12 B Baker Street');
  });

  it('writes a unit one way wherever and however it is given, and keeps units apart', () => {
    same('100 Congress Ave, Suite 4', '100 Congress Avenue #4');
    same('100 Congress Ave Ste. 4', 'Unit 4, 100 Congress Ave');
    same('100 Congress Ave Apt 4', '100 Congress Ave No. 4');
    differ('100 Congress Ave Suite 4', '100 Congress Ave Suite 5');
    differ('100 Congress Ave Suite 4', '100 Congress Ave');
    differ('100 Congress Ave', '101 Congress Ave');
    differ('100 Avenue of the Americas', '100 Avenue the Americas');
  });

  it('reads other scripts and languages: accents, full-width forms, native digits, German and Russian words, Japanese block numbers', () => {
    same('Rue Saint-Honoré 12', 'rue saint honore 12');
    same('Hauptstraße 5', 'Hauptstr. 5');
    same('HAUPTSTRASSE 5', 'hauptstraße 5');
    same('ул. Ленина, д. 5, кв. 12', 'улица Ленина дом 5 квартира 12');
    differ('ул. Ленина 5', 'ул. Ленина 6');
    // й is not и with an accent: Cyrillic marks are kept.
    differ('ул. Майская 5', 'ул. Маиская 5');
    same('東京都千代田区丸の内1丁目2番3号', '東京都千代田区丸の内１-２-３');
    same('شارع الملك فهد ١٢', 'ش الملك فهد 12');
    same('Οδός Ερμού 10', 'οδος ερμου 10');
    same('१२ महात्मा गांधी मार्ग', '12 महात्मा गांधी मार्ग');
    same('Ｍａｉｎ　Ｓｔ　１０', 'Main Street 10');
  });

  it('keys the postal code without its spacing or a ZIP+4', () => {
    expect(postalKey('78701-1234')).toBe('78701');
    expect(postalKey(' 78701 ')).toBe('78701');
    expect(postalKey('k1a 0b1')).toBe(postalKey('K1A0B1'));
    expect(placeKey({ address: '100 Congress Ave', zip: '78701' })).toBe(placeKey({ address: '100 congress avenue', zip: '78701-0001' }));
    expect(placeKey({ address: '100 Congress Ave', zip: '78701' })).not.toBe(placeKey({ address: '100 Congress Ave', zip: '78702' }));
  });

  it("counts a provider's place id as a place's identity only for a real listing", () => {
    expect(isListingId('google:ChIJ123')).toBe(true);
    expect(isListingId('yelp:abc')).toBe(true);
    expect(isListingId('sample-b-123')).toBe(false);
    expect(isListingId('input:4f1c')).toBe(false);
    expect(isListingId(null)).toBe(false);
  });
});
