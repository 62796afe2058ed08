// Matching names and places in every script (api/report/analysis/matching.ts).
import { describe, expect, it } from 'vitest';
import { inferCategory, categoryFromProvider } from '../../api/report/analysis/categories.ts';
import { brandDomain, brandOf, countPhrase, findBusiness, fold, identity, nameCoverage, nameTokens, sameName, streetKey, websiteHost } from '../../api/report/analysis/matching.ts';

describe('fold', () => {
  it('removes marks, spells out the letters NFKD keeps whole, ignores apostrophes and punctuation', () => {
    expect(fold('Łódź Café')).toBe('lodz cafe');
    expect(fold('Café Olé!')).toBe('cafe ole');
    expect(fold("Joe's Café")).toBe('joes cafe');
    expect(fold('Joe’s')).toBe('joes');
    expect(fold('Straße Bäckerei')).toBe('strasse backerei');
    expect(fold('Ørsted Æble Đà Lạt')).toBe('orsted aeble da lat');
    expect(fold('Кафе «Москва»')).toBe('кафе москва');
    expect(fold('ＡＢＣ　１２３')).toBe('abc 123');
  });
  it('keeps letters and digits of every script', () => {
    expect(fold('すし匠 銀座店')).toBe('すし匠 銀座店');
    expect(fold('مطعم الشام')).toBe('مطعم الشام');
    expect(nameTokens('すし匠')).toEqual(['すし', 'し匠']);
  });
});

describe('sameName', () => {
  it.each([
    ['Lodz Cafe', 'Łódź Café'],
    ['Cafe Ole', 'Café Olé'],
    ['Joes Cafe', "Joe's Café"],
    ['Кафе Москва', 'Кафе «Москва»'],
    ['すし匠', 'すし匠'],
    ['すし匠 銀座店', 'すし匠銀座店'],
    ['Acme Dental', 'Acme Dental Care'],
    ['Bright Smile Dental, LLC', 'Bright Smile Dental'],
    // Scripts written without spaces or with optional ones: the spaces are the writer's choice.
    ['서울숯불갈비', '서울 숯불 갈비'],
    ['서울 숯불갈비', '서울숯불 갈비 본점'],
    ['명동교자', '명동 교자'],
    ['鼎泰豐信義店', '鼎泰豐 信義店'],
    ['北京烤鸭 餐厅', '北京烤鸭餐厅'],
    ['ラーメン一蘭 渋谷店', 'ラーメン 一蘭 渋谷店'],
    ['ร้านอาหารบ้านสวน', 'ร้านอาหาร บ้านสวน'],
    // Word order and a space a Latin name may or may not have.
    ['Bottle Blue Coffee', 'Blue Bottle Coffee'],
    ['BlueBottle Coffee', 'Blue Bottle Coffee'],
    ['Pizza Hut', 'PizzaHut'],
  ])('%s = %s', (a, b) => expect(sameName(a, b)).toBe(true));
  it.each([
    ['Bright Smile Dental', 'Congress Dental'],
    ['Кафе Москва', 'Кафе Пушкин'],
    ['すし匠', 'ラーメン一蘭'],
    ['Cafe Ole', 'Cafe Roma'],
    // Other restaurants on the same street: a shared dish, trade or place name is not the name.
    ['서울숯불갈비', '서울 순두부'],
    ['서울숯불갈비', '부산숯불갈비'],
    ['서울숯불갈비 강남점', '서울숯불갈비 역삼점'],
    ['명동교자', '명동 칼국수'],
    ['鼎泰豐信義店', '鼎泰豐 新生店'],
    ['北京烤鸭餐厅', '上海烤鸭餐厅'],
    ['ร้านอาหารบ้านสวน', 'ร้านอาหาร บ้านทะเล'],
    // Voicing marks and vowel signs are letters there, not accents: "が" is not "か".
    ['がっこう', 'かっこう'],
    ['Sun Set Grill', 'Sunset Bar'],
  ])('%s ≠ %s', (a, b) => expect(sameName(a, b)).toBe(false));
});

describe('identity', () => {
  const own = { name: 'Кафе Москва', phone: '+1 (512) 555-0100', website: 'https://www.moskva-cafe.com/', address: '100 Congress Ave, Austin, TX', point: { latitude: 30.27, longitude: -97.74 } };
  it('a shared phone or website host is the same business whatever the name', () => {
    expect(identity({ name: 'Cafe Moskva', phone: '512-555-0100' }, own)).toMatchObject({ same: true, by: 'phone' });
    expect(identity({ name: 'Moscow Café', website: 'http://moskva-cafe.com/menu' }, own)).toMatchObject({ same: true, by: 'website' });
  });
  it('a shared social-network host proves nothing', () => {
    expect(websiteHost('https://www.facebook.com/kafe')).toBeNull();
    expect(websiteHost('http://127.0.0.1:8080/site/1')).toBeNull();
    expect(websiteHost('https://WWW.Moskva-Cafe.com./menu')).toBe('moskva-cafe.com');
    expect(identity({ name: 'Other', website: 'https://facebook.com/x' }, { name: 'Кафе', website: 'https://facebook.com/y' }).same).toBe(false);
  });
  it('a matching name is overruled by a different phone, host, street or distance', () => {
    expect(identity({ name: 'Кафе Москва', phone: '512 555 0199' }, own)).toMatchObject({ same: false, contradicted: 'phone' });
    expect(identity({ name: 'Кафе Москва', address: '900 Lamar Blvd' }, own)).toMatchObject({ same: false, contradicted: 'address' });
    expect(identity({ name: 'Кафе Москва', point: { latitude: 30.4, longitude: -97.74 } }, own)).toMatchObject({ same: false, contradicted: 'distance' });
    expect(identity({ name: 'Кафе Москва', point: { latitude: 30.2701, longitude: -97.7401 } }, own)).toMatchObject({ same: true, by: 'name' });
    expect(identity({ name: 'Кафе Москва', address: '100 N Congress Avenue' }, own)).toMatchObject({ same: true, by: 'address' });
  });
  it('a Korean name typed without spaces finds its spaced listing, not the place next door', () => {
    const hits = [
      { name: '부산숯불갈비', address: '서울특별시 중구 명동길 12', point: { latitude: 37.5636, longitude: 126.9850 } },
      { name: '서울 숯불 갈비', address: '서울특별시 중구 명동길 14', point: { latitude: 37.5638, longitude: 126.9852 } },
    ];
    expect(findBusiness(hits, { name: '서울숯불갈비', address: '명동길 14' })).toBe(hits[1]);
    expect(findBusiness([hits[0]!], { name: '서울숯불갈비', address: '명동길 14' })).toBeNull();
    // Its own listing 0.11 miles from where the address was located is itself, not a competitor.
    expect(identity({ name: '서울 숯불 갈비', point: { latitude: 37.5652, longitude: 126.9850 } }, { name: '서울숯불갈비', point: { latitude: 37.5636, longitude: 126.9850 } }).same).toBe(true);
  });
  it('what a visitor typed confirms a hit but does not overrule it', () => {
    const hits = [
      { name: 'Starbucks', address: '500 Lamar Blvd, Austin' },
      { name: 'Starbucks', address: '100 Congress Ave, Austin' },
      { name: 'Congress Coffee', address: '100 Congress Ave, Austin' },
    ];
    expect(findBusiness(hits, { name: 'Starbucks', address: '100 Congress Ave' })).toBe(hits[1]);
    expect(findBusiness(hits, { name: 'Starbucks', address: '1 Unknown Rd' })).toBe(hits[0]);
    expect(findBusiness(hits, { name: 'Blue Bottle', address: '100 Congress Ave' })).toBeNull();
  });
  it('street keys ignore directions and suffix spelling', () => {
    expect(streetKey('100 N. Congress Ave., Austin')).toBe('100 congress');
    expect(streetKey('Suite 5')).toBeNull();
  });
});

describe('names on pages and category words', () => {
  it('a Cyrillic or Japanese name is found in its own page text', () => {
    expect(nameCoverage('Кафе Москва', 'Добро пожаловать в кафе «Москва»!')).toBe(1);
    expect(nameCoverage('すし匠', 'ようこそ すし匠へ')).toBe(1);
    expect(nameCoverage('서울숯불갈비', '서울 숯불 갈비에 오신 것을 환영합니다')).toBe(1);
    expect(nameCoverage('서울숯불갈비', '부산 숯불 갈비에 오신 것을 환영합니다')).toBeLessThan(0.75);
  });
  it('counts whole folded words, substrings in scripts without spaces', () => {
    expect(countPhrase(fold('Café, CAFE and cafeteria'), 'café')).toBe(2);
    expect(countPhrase(fold('東京のラーメン屋'), 'ラーメン')).toBe(1);
  });
  it.each([
    ['Café Olé', 'restaurant'],
    ['Pizzería Napoli', 'restaurant'],
    ['Кафе Москва', 'restaurant'],
    ['寿司 さくら', 'restaurant'],
    ['Clínica Dental Sonrisa', 'dentist'],
    ['Peluquería Ana', 'hair_salon'],
    ['서울숯불갈비', 'restaurant'],
    ['서울 숯불 갈비', 'restaurant'],
    ['강남 치과', 'dentist'],
    ['北京烤鸭餐厅', 'restaurant'],
    ['ร้านอาหารบ้านสวน', 'restaurant'],
  ])('%s is a %s', (name, id) => expect(inferCategory(name)?.id).toBe(id));
  it('provider categories in other languages', () => {
    expect(categoryFromProvider('cafe')?.id).toBe('restaurant');
    expect(categoryFromProvider('Café')?.id).toBe('restaurant');
  });
});

// Decision 0235: a chain's other locations are competitors marked "your brand", never dropped as
// the business's own listing, and never confused with a namesake on its own domain.
describe('brandOf and a chain\'s shared phone line or website', () => {
  const own = { name: 'Bean & Leaf Coffee', phone: '(512) 555-0100', website: 'https://www.beanandleaf.com/austin', address: '100 Congress Ave, Austin, TX', point: { latitude: 30.2713, longitude: -97.7426 } };
  it('a shared phone or website at another street address or further than one spot is another location, not the business', () => {
    expect(identity({ name: 'B&L Kiosk', phone: '+1 512 555 0100', address: '500 Lamar Blvd, Austin' }, own).same).toBe(false);
    expect(identity({ name: 'Bean & Leaf Coffee', website: 'https://beanandleaf.com/round-rock', point: { latitude: 30.5083, longitude: -97.6789 } }, own).same).toBe(false);
    // At the same spot, still the business's own listing.
    expect(identity({ name: 'B&L', phone: '512-555-0100', address: '100 Congress Avenue' }, own)).toMatchObject({ same: true, by: 'phone' });
    expect(identity({ name: 'Bean Leaf', website: 'http://beanandleaf.com/' }, own)).toMatchObject({ same: true, by: 'website' });
  });
  it('tells the brand by its website domain whatever the name, by a phone line both list, else by the name', () => {
    expect(brandDomain('https://locations.beanandleaf.com/x')).toBe('beanandleaf.com');
    expect(brandDomain('https://shop.beanandleaf.co.uk/')).toBe('beanandleaf.co.uk');
    expect(brandOf(own, { name: 'BeanLeaf Roastery', website: 'https://locations.beanandleaf.com/rr' })).toBe('website');
    expect(brandOf(own, { name: 'Express Kiosk', phone: '512.555.0100' })).toBe('phone');
    expect(brandOf(own, { name: 'Bean and Leaf Coffee - Domain', phone: '(512) 555-0301' })).toBe('name');
    // A namesake with a website of another domain is another business.
    expect(brandOf(own, { name: 'Bean & Leaf Coffee', website: 'https://beanleafcoffeeco.com' })).toBeNull();
    expect(brandOf(own, { name: 'Golden Grill' })).toBeNull();
    // A social page is no brand website: the name decides.
    expect(brandOf({ name: 'Tacos Lupita', website: 'https://facebook.com/tacoslupita' }, { name: 'Tacos Lupita', website: 'https://facebook.com/tacoslupita2' })).toBe('name');
  });
  it('in scripts written without spaces and spaced two ways, and the name the visitor typed', () => {
    expect(brandOf({ name: '파리바게뜨' }, { name: '파리 바게뜨' })).toBe('name');
    expect(brandOf({ name: 'Кофе Хауз' }, { name: 'Кофе Хауз' })).toBe('name');
    expect(brandOf({ name: 'Кофе Хауз' }, { name: 'Шоколадница' })).toBeNull();
    expect(brandOf({ name: 'BL Coffee Austin', otherNames: ['Bean & Leaf Coffee'] }, { name: 'Bean & Leaf Coffee' })).toBe('name');
  });
});
