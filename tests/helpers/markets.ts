// Markets at the edges real markets hit, for the provider stand-ins (places-standin.ts): names in
// Cyrillic and Japanese, accents the visitor did not type, a dead website, a business the
// provider does not list, one with no reviews, reviews in Spanish. Websites that answer are
// LocalRank's own sample sites (served in-process, no network); a dead one is a closed loopback port.
import { sampleSiteUrl } from '../../api/report/analysis/sample-sites.ts';
import type { StandinMarket, StandinPlace, StandinReview } from './places-standin.ts';

export const CENTER = { latitude: 30.2713, longitude: -97.7426 };
/** Nothing listens here: a website that does not answer. */
export const DEAD_SITE = 'http://127.0.0.1:9/';

const OFFSETS: Array<[number, number]> = [[0.01, 0.02], [0.03, -0.01], [-0.05, 0.04], [0.08, 0.02], [-0.1, -0.06], [0.12, 0.1], [0.15, -0.12], [-0.2, 0.05], [0.05, -0.2], [0.1, 0.1], [0.02, 0.03]];

const ENGLISH: StandinReview[] = [
  { rating: 5, text: 'Great staff, friendly and on time.', daysAgo: 4 },
  { rating: 4, text: 'Good food and fair prices.', daysAgo: 12 },
  { rating: 2, text: 'Terrible wait and rude front desk.', daysAgo: 25 },
  { rating: 5, text: 'Wonderful team, explained everything.', daysAgo: 40 },
  { rating: 5, text: 'Excellent, would recommend.', daysAgo: 70 },
];

export const SPANISH: StandinReview[] = [
  { rating: 5, text: 'Excelente servicio, muy amables y rápidos. ¡Los recomiendo!', english: 'Excellent service, very kind and fast. I recommend them!', language: 'es', daysAgo: 3 },
  { rating: 1, text: 'Terrible, nunca llegaron y nadie contestó el teléfono.', english: 'Terrible, they never arrived and nobody answered the phone.', language: 'es', daysAgo: 9 },
  { rating: 5, text: 'Muy buena atención, el personal es muy amable.', english: 'Very good service, the staff is very friendly.', language: 'es', daysAgo: 20 },
  { rating: 4, text: 'Buena comida y precios justos.', english: 'Good food and fair prices.', language: 'es', daysAgo: 33 },
  { rating: 2, text: 'Malo, la comida llegó fría y el mesero fue grosero.', english: 'Bad, the food arrived cold and the waiter was rude.', language: 'es', daysAgo: 50 },
];

/** German reviews as Google gives them when it does not translate: 4 of 5 negative, two of them
 *  negated after the verb ("Ich empfehle es nicht"), the positive one an idiom ("Nicht schlecht"). */
export const GERMAN: StandinReview[] = [
  { rating: 1, text: 'Ich empfehle es nicht.', language: 'de', daysAgo: 3 },
  { rating: 1, text: 'Das Essen war kalt und die Bedienung unfreundlich. Ich komme nie wieder.', language: 'de', daysAgo: 10 },
  { rating: 2, text: 'Leider nicht zu empfehlen, viel zu teuer.', language: 'de', daysAgo: 21 },
  { rating: 1, text: 'Wir haben eine Stunde gewartet. Ich empfehle das Lokal nicht weiter.', language: 'de', daysAgo: 35 },
  { rating: 5, text: 'Nicht schlecht! Sehr freundliches Personal.', language: 'de', daysAgo: 48 },
];

/** Reviews as Yelp gives them, with no language: Swedish, Dutch, and one word that is either. */
export const NORDIC: StandinReview[] = [
  { rating: 1, text: 'Inte bra, maten var kall.', daysAgo: 2 },
  { rating: 1, text: 'Slecht', daysAgo: 5 },
  { rating: 4, text: 'Prima', daysAgo: 8 },
  { rating: 5, text: 'Mycket trevlig personal och god mat!', daysAgo: 40 },
  { rating: 2, text: 'Jag rekommenderar det inte.', daysAgo: 60 },
];

/** Yelp excerpts none of whose languages can be told with confidence. */
export const UNTOLD: StandinReview[] = [
  { rating: 1, text: 'Prima', daysAgo: 2 },
  { rating: 2, text: 'Salamat po', daysAgo: 6 },
  { rating: 1, text: 'Ok ok', daysAgo: 9 },
];

/** Competitors: distinct phones, some with sample websites, reviews in English unless given. */
function competitors(origin: string, names: string[], type: string, typeLabel: string, reviews = ENGLISH): StandinPlace[] {
  return names.map((name, i) => ({
    id: `c${i + 1}`,
    name,
    offset: OFFSETS[i % OFFSETS.length]!,
    phone: `(512) 555-02${String(i + 10).padStart(2, '0')}`,
    website: i % 3 === 0 ? sampleSiteUrl(origin, { n: name, a: `${300 + i} Oak Ave, Austin, TX 78701`, p: `(512) 555-02${String(i + 10).padStart(2, '0')}`, c: 'restaurant', q: 1000 + i }) : null,
    address: `${300 + i} Oak Ave, Austin, TX 78701, USA`,
    rating: 3.6 + (i % 4) * 0.3,
    reviewCount: 30 + i * 25,
    reviews: reviews.map((r, k) => ({ ...r, rating: ((r.rating + i + k) % 5) + 1 })),
    type,
    typeLabel,
  }));
}

export interface MarketCase {
  company: string;
  address: string;
  website: string;
  /** The market, its sample websites under `origin` (the app's PUBLIC_BASE_URL). */
  market: (origin: string) => StandinMarket;
}

const ownSite = (origin: string, name: string) => sampleSiteUrl(origin, { n: name, a: '100 Congress Ave, Austin, TX 78701', p: '(512) 555-0100', c: 'restaurant', q: 7 });

function own(origin: string, name: string, over: Partial<StandinPlace> = {}): StandinPlace {
  return { id: 'own', name, offset: [0, 0], phone: '(512) 555-0100', website: ownSite(origin, name), address: '100 Congress Ave, Austin, TX 78701, USA', rating: 4.2, reviewCount: 80, reviews: ENGLISH, type: 'restaurant', typeLabel: 'Restaurant', ...over };
}

const CAFE_NAMES = ['Кафе Пушкин', 'Café Olé', 'Blue Moon Diner', 'Golden Grill', 'Corner Bistro', 'Harvest Kitchen', 'Urban Eatery', 'Little Tavern', 'Rustic Table', 'Lone Star Cafe'];

/** Five reviews in five languages as Google states them: Portuguese, Italian and English are
 *  measured (two positive, one neutral), Polish and Japanese are not (both 1-star). */
export const MIXED: StandinReview[] = [
  { rating: 5, text: 'Excelente atendimento, comida deliciosa e funcionários muito simpáticos.', language: 'pt', daysAgo: 3 },
  { rating: 5, text: 'Ottimo cibo, personale gentile e prezzi giusti.', language: 'it', daysAgo: 9 },
  { rating: 3, text: 'We came for lunch on a Tuesday.', language: 'en', daysAgo: 15 },
  { rating: 1, text: 'Bardzo słaba obsługa, jedzenie zimne. Nie polecam.', language: 'pl', daysAgo: 22 },
  { rating: 1, text: '料理が冷たくて、店員の態度も悪かったです。', language: 'ja', daysAgo: 30 },
];

/** Other shapes: three languages not measured with different stars, and one measured. */
export const SCRIPTS: StandinReview[] = [
  { rating: 5, text: 'Great coffee and friendly staff, highly recommend.', language: 'en', daysAgo: 2 },
  { rating: 5, text: 'Cà phê rất ngon, nhân viên thân thiện.', language: 'vi', daysAgo: 6 },
  { rating: 1, text: 'Πολύ κακή εξυπηρέτηση, δεν θα ξαναπάω.', language: 'el', daysAgo: 11 },
  { rating: 3, text: 'กาแฟก็โอเค แต่รอนานไปหน่อย', language: 'th', daysAgo: 19 },
];

/** A coffee chain's location and, around it, the chain's other locations among independent
 *  coffee shops: told by the same name with a branch suffix, by a phone line the chain lists
 *  for each (its central number) under another name, and by the brand's website under a
 *  different spelling of the name; a same-name shop with its own website on another domain is
 *  an independent business. */
const CHAIN_INDEPENDENTS = ['Blue Moon Diner', 'Golden Grill', 'Corner Bistro', 'Harvest Kitchen'];
function chainMarket(origin: string): StandinMarket {
  const me = own(origin, 'Bean & Leaf Coffee', { website: 'https://www.beanandleaf.example/austin-congress', phone: '(512) 555-0100', type: 'cafe', typeLabel: 'Coffee shop', reviews: ENGLISH });
  const indie = competitors(origin, CHAIN_INDEPENDENTS, 'cafe', 'Coffee shop');
  const branch = (id: string, name: string, i: number, over: Partial<StandinPlace> = {}): StandinPlace => ({ ...indie[0]!, id, name, offset: OFFSETS[(i + 4) % OFFSETS.length]!, phone: `(512) 555-03${10 + i}`, website: null, address: `${500 + i} Lamar Blvd, Austin, TX 78704, USA`, rating: 4.1 + (i % 3) * 0.2, reviewCount: 200 + i * 40, ...over });
  const chain = [
    branch('b1', 'Bean & Leaf Coffee - South Lamar', 1),
    branch('b2', 'Bean and Leaf Coffee', 2),
    branch('b3', 'Bean & Leaf Coffee (Domain)', 3),
    // The chain's central line under the name its app gives the kiosk.
    branch('b4', 'B&L Express Kiosk', 4, { phone: '+1 512-555-0100' }),
    // The brand's website, another spelling of the name.
    branch('b5', 'BeanLeaf Roastery Round Rock', 5, { website: 'https://locations.beanandleaf.example/round-rock' }),
  ];
  // Same name, another business: its own website on another domain.
  const namesake = branch('n1', 'Bean & Leaf Coffee', 6, { website: 'https://beanleafcoffeeco.example/', phone: '(512) 555-0399', address: '900 Burnet Rd, Austin, TX 78756, USA' });
  return { center: CENTER, searchHits: [me], nearby: [me, ...chain, namesake, ...indie] };
}

export const MARKETS = {
  /** The name exactly as Google lists it, in Cyrillic; its own listing also comes back from the
   *  competitor search, and so does a duplicate listing of it with the same phone. */
  cyrillic: {
    company: 'Кафе Москва',
    address: '100 Congress Ave',
    website: '',
    market: (origin: string): StandinMarket => {
      const me = own(origin, 'Кафе «Москва»', { type: 'cafe', typeLabel: 'Кафе' });
      return { center: CENTER, searchHits: [me], nearby: [me, { ...me, id: 'own-dup', name: 'Moskva Cafe', website: null }, ...competitors(origin, CAFE_NAMES, 'cafe', 'Кафе')] };
    },
  },
  /** A Japanese name, no spaces, listed with its branch suffix. */
  japanese: {
    company: 'すし匠',
    address: '100 Congress Ave',
    website: '',
    market: (origin: string): StandinMarket => {
      const me = own(origin, 'すし匠 オースティン店', { type: 'sushi_restaurant', typeLabel: '寿司店' });
      return { center: CENTER, searchHits: [me], nearby: [me, ...competitors(origin, ['寿司 さくら', 'ラーメン一蘭', ...CAFE_NAMES.slice(2)], 'sushi_restaurant', '寿司店')] };
    },
  },
  /** Typed without accents and apostrophe; listed with them. */
  accents: {
    company: 'Joes Cafe Ole',
    address: '100 Congress Ave',
    website: '',
    market: (origin: string): StandinMarket => {
      const me = own(origin, "Joe's Café Olé", { type: 'cafe', typeLabel: 'Café' });
      return { center: CENTER, searchHits: [{ ...competitors(origin, ['Café Olé Express'], 'cafe', 'Café')[0]!, id: 'decoy', phone: '(512) 555-0999' }, me], nearby: [me, ...competitors(origin, CAFE_NAMES.slice(1), 'cafe', 'Café')] };
    },
  },
  /** The business's website does not answer. */
  'dead-site': {
    company: 'Golden Spoon Bistro',
    address: '100 Congress Ave',
    website: DEAD_SITE,
    market: (origin: string): StandinMarket => {
      const me = own(origin, 'Golden Spoon Bistro', { website: DEAD_SITE });
      return { center: CENTER, searchHits: [me], nearby: [me, ...competitors(origin, CAFE_NAMES.slice(0, 9), 'restaurant', 'Restaurant')] };
    },
  },
  /** The provider does not list the business: its search finds only other places. */
  unlisted: {
    company: 'Nowhere Noodle House',
    address: '100 Congress Ave',
    website: '',
    market: (origin: string): StandinMarket => {
      const rest = competitors(origin, CAFE_NAMES.slice(0, 9), 'restaurant', 'Restaurant');
      return { center: CENTER, searchHits: rest.slice(0, 3), nearby: rest };
    },
  },
  /** Listed, with no reviews at all (Google and Yelp omit the rating). */
  'zero-reviews': {
    company: 'Brand New Bakery Cafe',
    address: '100 Congress Ave',
    website: '',
    market: (origin: string): StandinMarket => {
      const me = own(origin, 'Brand New Bakery Cafe', { rating: null, reviewCount: 0, reviews: [] });
      return { center: CENTER, searchHits: [me], nearby: [me, ...competitors(origin, CAFE_NAMES.slice(0, 9), 'restaurant', 'Restaurant')] };
    },
  },
  /** Every review in the market is in Spanish. */
  spanish: {
    company: 'Taquería El Sol',
    address: '100 Congress Ave',
    website: '',
    market: (origin: string): StandinMarket => {
      const me = own(origin, 'Taquería El Sol', { reviews: SPANISH });
      return { center: CENTER, searchHits: [me], nearby: [me, ...competitors(origin, ['Pizzería Napoli', 'Restaurante La Casa', ...CAFE_NAMES.slice(2, 9)], 'restaurant', 'Restaurant', SPANISH)] };
    },
  },
  /** Nothing else of its kind within the 20 miles: the competitor search finds only the business's
   *  own listing (as Google returns it) and a place 30 miles away. */
  'no-competitors': {
    company: 'Prairie Creek Diner',
    address: '100 Congress Ave',
    website: '',
    market: (origin: string): StandinMarket => {
      const me = own(origin, 'Prairie Creek Diner');
      const far = { ...competitors(origin, ['Faraway Grill'], 'restaurant', 'Restaurant')[0]!, id: 'far', offset: [0.45, 0.1] as [number, number] };
      return { center: CENTER, searchHits: [me], nearby: [me, far] };
    },
  },
  /** A thin market: two competitors within the 20 miles. */
  'two-competitors': {
    company: 'Prairie Creek Diner',
    address: '100 Congress Ave',
    website: '',
    market: (origin: string): StandinMarket => {
      const me = own(origin, 'Prairie Creek Diner');
      return { center: CENTER, searchHits: [me], nearby: [me, ...competitors(origin, CAFE_NAMES.slice(2, 4), 'restaurant', 'Restaurant')] };
    },
  },
  /** Google's documented edge values: the business is open 24/7 (one period, day 0 at 00:00, no
   *  close), one competitor is not open yet (FUTURE_OPENING), another's price level is
   *  PRICE_LEVEL_UNSPECIFIED. */
  'provider-contract': {
    company: 'Night Owl Diner',
    address: '100 Congress Ave',
    website: '',
    market: (origin: string): StandinMarket => {
      const me = own(origin, 'Night Owl Diner', { details: { regularOpeningHours: { openNow: true, periods: [{ open: { day: 0, hour: 0, minute: 0 } }], weekdayDescriptions: ['Monday: Open 24 hours'] }, priceLevel: 'PRICE_LEVEL_INEXPENSIVE' } });
      const rest = competitors(origin, CAFE_NAMES.slice(2, 9), 'restaurant', 'Restaurant');
      rest[0] = { ...rest[0]!, details: { businessStatus: 'FUTURE_OPENING' } };
      rest[1] = { ...rest[1]!, details: { priceLevel: 'PRICE_LEVEL_UNSPECIFIED' } };
      return { center: CENTER, searchHits: [me], nearby: [me, ...rest] };
    },
  },
  /** A Korean name typed without spaces, listed with them, 0.11 miles from where the address was
   *  located; another charcoal-galbi restaurant on the same street, and a tofu house named after
   *  the same city. */
  korean: {
    company: '서울숯불갈비',
    address: '100 Congress Ave',
    website: '',
    market: (origin: string): StandinMarket => {
      const me = own(origin, '서울 숯불 갈비', { offset: [0.0016, 0], type: 'korean_restaurant', typeLabel: 'Korean Restaurant' });
      const [busan, tofu] = competitors(origin, ['부산숯불갈비', '서울 순두부'], 'korean_restaurant', 'Korean Restaurant');
      const street = [{ ...busan!, id: 'busan', offset: [0.001, 0.0005] as [number, number], address: '104 Congress Ave, Austin, TX 78701, USA' }, { ...tofu!, id: 'tofu', offset: [0.0012, -0.0004] as [number, number], address: '108 Congress Ave, Austin, TX 78701, USA' }];
      return { center: CENTER, searchHits: [...street, me], nearby: [me, ...street, ...competitors(origin, CAFE_NAMES.slice(2, 9), 'korean_restaurant', 'Korean Restaurant').map((c, i) => ({ ...c, id: `k${i}` }))] };
    },
  },
  /** Every review in German, as written (no translation): 4 of 5 negative. */
  german: {
    company: 'Zum Goldenen Hirsch',
    address: '100 Congress Ave',
    website: '',
    market: (origin: string): StandinMarket => {
      const me = own(origin, 'Zum Goldenen Hirsch', { reviews: GERMAN });
      return { center: CENTER, searchHits: [me], nearby: [me, ...competitors(origin, CAFE_NAMES.slice(2, 9), 'restaurant', 'Restaurant', GERMAN)] };
    },
  },
  /** Swedish and Dutch reviews with no language stated (Yelp). */
  nordic: {
    company: 'Smörgåsbord Stugan',
    address: '100 Congress Ave',
    website: '',
    market: (origin: string): StandinMarket => {
      const me = own(origin, 'Smörgåsbord Stugan', { reviews: NORDIC });
      return { center: CENTER, searchHits: [me], nearby: [me, ...competitors(origin, CAFE_NAMES.slice(2, 9), 'restaurant', 'Restaurant', NORDIC)] };
    },
  },
  /** Yelp excerpts whose languages cannot be told: no sentiment figure at all. */
  untold: {
    company: 'Corner Noodle Bar',
    address: '100 Congress Ave',
    website: '',
    market: (origin: string): StandinMarket => {
      const me = own(origin, 'Corner Noodle Bar', { reviews: UNTOLD });
      return { center: CENTER, searchHits: [me], nearby: [me, ...competitors(origin, CAFE_NAMES.slice(2, 9), 'restaurant', 'Restaurant')] };
    },
  },
  /** A coffee chain: five of its other locations among nine competitors (decision 0235). */
  chain: {
    company: 'Bean & Leaf Coffee',
    address: '100 Congress Ave',
    website: 'https://www.beanandleaf.example/austin-congress',
    market: chainMarket,
  },
  /** A chain in Cyrillic whose locations share the name exactly, and a Korean one spaced two ways. */
  cyrillicChain: {
    company: 'Кофе Хауз',
    address: '100 Congress Ave',
    website: '',
    market: (origin: string): StandinMarket => {
      const me = own(origin, 'Кофе Хауз', { website: null, type: 'cafe', typeLabel: 'Кофейня' });
      const others = competitors(origin, ['Кофе Хауз', 'Кофе Хауз', '파리 바게뜨', 'Шоколадница', 'Golden Grill', 'Corner Bistro'], 'cafe', 'Кофейня').map((c, i) => ({ ...c, id: `r${i}`, website: null, address: `${700 + i} Lamar Blvd, Austin, TX 78704, USA` }));
      return { center: CENTER, searchHits: [me], nearby: [me, ...others] };
    },
  },
  /** Reviews in Portuguese, Italian, English, Polish and Japanese: 3 measured, 2 (1-star) not. */
  mixed: {
    company: 'Casa Lisboa',
    address: '100 Congress Ave',
    website: '',
    market: (origin: string): StandinMarket => {
      const me = own(origin, 'Casa Lisboa', { reviews: MIXED });
      return { center: CENTER, searchHits: [me], nearby: [me, ...competitors(origin, CAFE_NAMES.slice(2, 9), 'restaurant', 'Restaurant', SCRIPTS)] };
    },
  },
} satisfies Record<string, MarketCase>;

export type MarketName = keyof typeof MARKETS;
