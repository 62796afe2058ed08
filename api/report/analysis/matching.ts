// Is this place the business we mean? One module for every match the analysis makes between
// names and places: a provider's search hit against the name the visitor typed, a competitor
// against the business's own listing, the business's name on its own website, a category word in
// a name. Names in any script: Unicode NFKD with the combining marks removed, the letters NFKD
// does not split (ß, ł, ø, æ, đ...) spelt out, case folded, letters and digits of every script
// kept, punctuation and apostrophes ignored. A name is never the only evidence when the provider
// gives more: a phone number, a website's host, a street address or the distance confirm or
// overrule it. Decisions 0150 and 0222 (names whatever their spacing).

/** Letters NFKD leaves whole, spelt as their usual Latin transliteration. */
const SPELT: Record<string, string> = {
  ß: 'ss', ẞ: 'ss', ł: 'l', Ł: 'l', ø: 'o', Ø: 'o', æ: 'ae', Æ: 'ae', œ: 'oe', Œ: 'oe', đ: 'd', Đ: 'd', ð: 'd', Ð: 'd',
  þ: 'th', Þ: 'th', ı: 'i', ħ: 'h', Ħ: 'h', ŧ: 't', Ŧ: 't', ŀ: 'l', Ŀ: 'l', ĸ: 'k', ŋ: 'n', Ŋ: 'n',
};
const SPELT_RE = new RegExp(`[${Object.keys(SPELT).join('')}]`, 'gu');
/** Apostrophes and the like join a word ("Joe's" = "Joes"); other punctuation separates words. */
const JOINERS = /['’ʼ‘`´\u00AD\u200C\u200D]/gu;
/** Scripts written without spaces between words, or with spaces where the writer chooses (Korean
 *  puts them between phrases, and a name is typed with or without them): matched on pairs of
 *  characters of the name with those spaces removed ("서울숯불갈비" = "서울 숯불 갈비"). */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
/** Scripts whose combining marks are part of the letter (Thai and Indic vowel signs, the kana's
 *  voicing marks: "が" is not "か"), not an accent a visitor may leave out: kept. */
const MARKS_ARE_LETTERS = /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Tibetan}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Gurmukhi}\p{Script=Gujarati}\p{Script=Oriya}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Kannada}\p{Script=Malayalam}\p{Script=Sinhala}]/u;

/** A text for comparison: NFKD, accents removed, special letters spelt out, lower case, every
 *  run of characters that are neither letters nor digits one space, then recomposed (NFC: Hangul
 *  syllables whole again). "Łódź Café" → "lodz cafe"; "Joe's Café" → "joes cafe"; "Кафе «Москва»"
 *  → "кафе москва". */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/(.?)(\p{M}+)/gsu, (_, base: string, marks: string) => base + (base && MARKS_ARE_LETTERS.test(base) ? marks : ''))
    .replace(SPELT_RE, (c) => SPELT[c]!)
    .toLowerCase()
    .replace(JOINERS, '')
    .replace(/&/g, ' and ')
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, ' ')
    .trim()
    .normalize('NFC');
}

const graphemes = new Intl.Segmenter('und', { granularity: 'grapheme' });

/** Words that say nothing about which business it is. */
const STOP = new Set(['the', 'and', 'of', 'llc', 'inc', 'co', 'pllc', 'pc', 'ltd', 'corp', 'company', 'gmbh', 'sa', 'srl', 'ooo', 'ооо', 'ип']);

/** The words of a name that tell it apart: folded, stop words and single Latin-like letters
 *  dropped; words in a script written without spaces or with optional ones (Japanese, Chinese,
 *  Korean, Thai), taken together with the spaces between them removed, become their pairs of
 *  characters, so "すし匠 銀座店" and "すし匠銀座店", "서울 숯불 갈비" and "서울숯불갈비" have the same. */
export function nameTokens(name: string): string[] {
  const out: string[] = [];
  let run = '';
  const flush = () => {
    const chars = Array.from(graphemes.segment(run), (g) => g.segment);
    if (chars.length === 1) out.push(run);
    for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
    run = '';
  };
  for (const word of fold(name).split(' ')) {
    if (!word || STOP.has(word)) continue;
    if (UNSPACED.test(word)) run += word;
    else {
      flush();
      if ([...word].length > 1) out.push(word);
    }
  }
  flush();
  return out;
}

/** A name's words with two neighbours written as one where the other name writes them as one
 *  ("Blue Bottle" against "BlueBottle"): the space is the writer's choice, not a difference. */
function joinedAs(words: string[], other: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i < words.length; i++) {
    const pair = i + 1 < words.length ? words[i]! + words[i + 1]! : null;
    if (pair && other.has(pair) && !other.has(words[i]!)) {
      out.add(pair);
      i++;
    } else out.add(words[i]!);
  }
  return out;
}

/** Two names' word sets, each with neighbours joined as the other writes them. */
function wordSets(a: string, b: string): [Set<string>, Set<string>] {
  const [ta, tb] = [nameTokens(a), nameTokens(b)];
  return [joinedAs(ta, new Set(tb)), joinedAs(tb, new Set(ta))];
}

function dice(x: ReadonlySet<string>, y: ReadonlySet<string>): number {
  if (x.size === 0 || y.size === 0) return 0;
  let shared = 0;
  for (const w of x) if (y.has(w)) shared++;
  return (2 * shared) / (x.size + y.size);
}

/** Dice similarity of two names' word sets (0-1), whatever their order and spacing. */
export function nameSimilarity(a: string, b: string): number {
  return dice(...wordSets(a, b));
}

/** A pair of characters of a script without spaces (a token `nameTokens` made, not a word). */
const isPair = (token: string) => UNSPACED.test(token);

/** The names are the same business's, as far as names go: Dice ≥ 0.6. "Acme Dental" = "Acme
 *  Dental Care"; "Congress Dental" ≠ "Bright Smile Dental" (a shared category word is not enough).
 *  In a script without spaces a pair of characters is a small part of a name, so a shared dish or
 *  trade ("숯불갈비", charcoal galbi) would carry two names that differ in what tells them apart
 *  ("서울숯불갈비" and "부산숯불갈비", 0.6): where each name has pairs the other lacks, they must
 *  share more (Dice ≥ 0.8). A name that only adds to the other ("서울숯불갈비 본점") needs 0.6. */
export function sameName(a: string, b: string): boolean {
  const [x, y] = wordSets(a, b);
  const similarity = dice(x, y);
  const own = (p: Set<string>, q: Set<string>) => [...p].some((w) => isPair(w) && !q.has(w));
  return similarity >= (own(x, y) && own(y, x) ? 0.8 : 0.6);
}

/** Every word of the shorter name is in the longer one. */
function nameContained(a: string, b: string): boolean {
  const [x, y] = wordSets(a, b);
  const [small, big] = x.size <= y.size ? [x, y] : [y, x];
  return small.size > 0 && [...small].every((w) => big.has(w));
}

/** How many of `name`'s words appear in `text` (0-1); null when the name has no words. */
export function nameCoverage(name: string, text: string): number | null {
  const words = [...new Set(nameTokens(name))];
  if (words.length === 0) return null;
  const hay = new Set(nameTokens(text));
  return words.filter((w) => hay.has(w)).length / words.length;
}

/** How many times `phrase` occurs as whole words (in scripts without spaces, as a substring) in
 *  `folded`, a text already passed through `fold` (fold a long text once, then count many
 *  phrases in it). "Pizzería Sol" counts "pizzeria" once; "Кафе Москва" counts "кафе" once. */
export function countPhrase(folded: string, phrase: string): number {
  const needle = fold(phrase);
  if (!needle) return 0;
  const spaced = !UNSPACED.test(needle);
  const hay = spaced ? ` ${folded} ` : folded;
  const target = spaced ? ` ${needle} ` : needle;
  let n = 0;
  // Whole words overlap by their separating space: "cafe cafe" holds "cafe" twice.
  for (let at = hay.indexOf(target); at !== -1; at = hay.indexOf(target, at + target.length - (spaced ? 1 : 0))) n++;
  return n;
}

/** Does `text` contain `phrase` as whole words (both folded)? */
export const containsPhrase = (text: string, phrase: string) => countPhrase(fold(text), phrase) > 0;

/** Hosts shared by many businesses: a link to one says nothing about which business it is. */
const SHARED_HOSTS = ['facebook.com', 'instagram.com', 'yelp.com', 'google.com', 'goo.gl', 'g.page', 'linktr.ee', 'business.site', 'tripadvisor.com', 'x.com', 'twitter.com', 'tiktok.com', 'linkedin.com', 'youtube.com', 'wa.me', 'whatsapp.com'];

/** A website's host without "www.", lower case; null for no URL, an unreadable one, an IP address
 *  or a host many businesses share (a Facebook page, a Yelp link). */
export function websiteHost(url: string | null | undefined): string | null {
  if (!url?.trim()) return null;
  let host: string;
  try {
    host = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(url.trim()) ? url.trim() : `http://${url.trim()}`).hostname.toLowerCase();
  } catch {
    return null;
  }
  host = host.replace(/^www\d?\./, '').replace(/\.$/, '');
  // An address (127.0.0.1, [::1]) or a bare name (localhost) is a machine, not a business.
  if (!host.includes('.') || /^[\d.]+$|^\[|:/.test(host) || SHARED_HOSTS.some((h) => host === h || host.endsWith(`.${h}`))) return null;
  return host;
}

/** A phone number's last ten digits (the national number in most plans); null under seven digits. */
export function phoneKey(phone: string | null | undefined): string | null {
  const digits = (phone ?? '').replace(/\D/g, '');
  return digits.length >= 7 ? digits.slice(-10) : null;
}

const DIRECTIONS = new Set(['n', 's', 'e', 'w', 'ne', 'nw', 'se', 'sw', 'north', 'south', 'east', 'west']);

/** A street address's number and first street word, folded ("100 congress"); null without a
 *  leading number. "100 Congress Ave, Austin" = "100 Congress Avenue". */
export function streetKey(address: string | null | undefined): string | null {
  const words = fold((address ?? '').split(',')[0] ?? '').split(' ').filter((w) => !DIRECTIONS.has(w));
  return words.length >= 2 && /^\d+[a-z]?$/.test(words[0]!) ? `${words[0]} ${words[1]}` : null;
}

/** Great-circle miles between two points. */
function milesBetween(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 3958.8 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** What is known of a place: a name, and whatever else the source gives. */
export interface PlaceFacts {
  name: string;
  phone?: string | null;
  website?: string | null;
  address?: string | null;
  /** Where the place is; for the visitor's request, where its address was located. */
  point?: { latitude: number; longitude: number } | null;
  /** How precise `point` is, in miles (a ZIP code's centre: a few miles; a listing: ~0). */
  pointPrecisionMiles?: number;
}

/** Two listings this close with the same name are one place. */
export const SAME_SPOT_MILES = 0.25;

export type Fact = 'phone' | 'website' | 'address' | 'distance';

/** Why two places are, or are not, the same business. `same` is the verdict; `by` the evidence
 *  that decided it. A phone number or a website host they share makes them one business whatever
 *  their names (the business's own listing is never its competitor); a matching name makes them
 *  one unless a fact the sources give for both says otherwise (different phones, hosts or street
 *  addresses, or further apart than the points' precision allows). `contradictBy` limits the facts
 *  that may overrule a name: what a visitor typed confirms a hit but is not precise enough to
 *  overrule one. */
export function identity(a: PlaceFacts, b: PlaceFacts, contradictBy: readonly Fact[] = ['phone', 'website', 'address', 'distance']): { same: boolean; by: 'phone' | 'website' | 'address' | 'name' | 'none'; contradicted?: Fact } {
  const [pa, pb] = [phoneKey(a.phone), phoneKey(b.phone)];
  const [ha, hb] = [websiteHost(a.website), websiteHost(b.website)];
  const [sa, sb] = [streetKey(a.address), streetKey(b.address)];
  // A phone line or a website a chain's locations share is not one place where both listings
  // give street addresses that differ, or points further apart than one spot: that is another
  // location of the brand (brandOf, decision 0235).
  const elsewhere = (sa && sb && sa !== sb) || (new Set(contradictBy).has('distance') && a.point && b.point && milesBetween(a.point, b.point) > SAME_SPOT_MILES + (a.pointPrecisionMiles ?? 0) + (b.pointPrecisionMiles ?? 0));
  if (pa && pb && pa === pb && !elsewhere) return { same: true, by: 'phone' };
  if (ha && hb && ha === hb && !elsewhere) return { same: true, by: 'website' };
  const named = sameName(a.name, b.name);
  // At one street address, a name whose every word is in the other's is the same business
  // ("すし匠" at the address of "すし匠 オースティン店").
  if (sa && sb && sa === sb && (named || nameContained(a.name, b.name))) return { same: true, by: 'address' };
  if (!named) return { same: false, by: 'none' };
  const may = new Set(contradictBy);
  if (may.has('phone') && pa && pb) return { same: false, by: 'name', contradicted: 'phone' };
  if (may.has('website') && ha && hb) return { same: false, by: 'name', contradicted: 'website' };
  if (may.has('address') && sa && sb) return { same: false, by: 'name', contradicted: 'address' };
  if (may.has('distance') && a.point && b.point) {
    const allowed = SAME_SPOT_MILES + (a.pointPrecisionMiles ?? 0) + (b.pointPrecisionMiles ?? 0);
    if (milesBetween(a.point, b.point) > allowed) return { same: false, by: 'name', contradicted: 'distance' };
  }
  return { same: true, by: 'name' };
}

export const samePlace = (a: PlaceFacts, b: PlaceFacts, contradictBy?: readonly Fact[]) => identity(a, b, contradictBy).same;

/** The search hit that is the business the visitor named, best evidence first: a shared phone,
 *  website or street address, then the most similar name that nothing contradicts. */
export function findBusiness<T extends PlaceFacts>(hits: T[], wanted: PlaceFacts, contradictBy: readonly Fact[] = []): T | null {
  const rank = { phone: 0, website: 1, address: 2, name: 3, none: 4 } as const;
  let best: { hit: T; order: number; similarity: number } | null = null;
  for (const hit of hits) {
    const verdict = identity(hit, wanted, contradictBy);
    if (!verdict.same) continue;
    const order = rank[verdict.by];
    const similarity = nameSimilarity(hit.name, wanted.name);
    if (!best || order < best.order || (order === best.order && similarity > best.similarity)) best = { hit, order, similarity };
  }
  return best?.hit ?? null;
}

/** A website's brand domain: its host without subdomains ("locations.beanandleaf.com" and
 *  "beanandleaf.com" are one brand; "beanandleaf.co.uk" keeps its "co.uk"). Null where
 *  `websiteHost` is (no address, a host many businesses share). */
export function brandDomain(url: string | null | undefined): string | null {
  const host = websiteHost(url);
  if (!host) return null;
  const labels = host.split('.');
  const keep = labels.length >= 3 && labels.at(-1)!.length === 2 && labels.at(-2)!.length <= 3 ? 3 : 2;
  return labels.slice(-keep).join('.');
}

/** How a competitor is another location of the business's brand: its brand website (whatever
 *  its name says), a phone line both list (a chain's central number), or its name as `sameName`
 *  matches names. Where both list websites of different domains, a same name is another business
 *  that happens to share it. Null: an independent competitor. Decision 0235. */
export type BrandBy = 'website' | 'phone' | 'name';
export function brandOf(own: PlaceFacts & { otherNames?: string[] }, other: PlaceFacts): BrandBy | null {
  const [da, db] = [brandDomain(own.website), brandDomain(other.website)];
  if (da && db && da === db) return 'website';
  const [pa, pb] = [phoneKey(own.phone), phoneKey(other.phone)];
  if (pa && pb && pa === pb) return 'phone';
  if (da && db) return null;
  return [own.name, ...(own.otherNames ?? [])].some((n) => sameName(n, other.name)) ? 'name' : null;
}
