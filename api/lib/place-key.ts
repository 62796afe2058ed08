// What makes two written addresses one place (decision 0212): the street line and the postal code,
// written any way a person writes them. "100 Congress Ave., Ste 4" and "100 congress avenue #4"
// are one key; "Suite 4" and "Suite 5" are two. Built for every script, not only English: Unicode
// compatibility forms and full-width letters fold (NFKC), case folds fully (ß = ss, ς = σ),
// any script's digits count as digits, accents go on Latin and Greek letters only (in Cyrillic,
// Devanagari and others a mark makes another letter), and the usual words of street addresses
// in several languages fold to one form. A pure function: the intake, the job and any
// script that matches places call this one.

// Each spelling → one canonical token. Long forms map to short ones, never the reverse, so a unit
// letter such as "C" or "N" is never read as a word.
const WORDS: Record<string, string> = {};
const fold = (canonical: string, ...forms: string[]) => {
  for (const form of [canonical, ...forms]) WORDS[form] = canonical;
};
// English
fold('st', 'street');
fold('ave', 'avenue', 'av', 'avn', 'avenida', 'avda');
fold('rd', 'road');
fold('blvd', 'boulevard', 'boul', 'bd', 'bld');
fold('dr', 'drive');
fold('ln', 'lane');
fold('ct', 'court');
fold('pl', 'place', 'platz');
fold('sq', 'square');
fold('ter', 'terrace');
fold('pkwy', 'parkway');
fold('hwy', 'highway');
fold('fwy', 'freeway');
fold('cir', 'circle');
fold('trl', 'trail');
fold('pike', 'turnpike', 'tpke');
fold('aly', 'alley');
fold('expy', 'expressway');
fold('ctr', 'center', 'centre');
fold('bldg', 'building');
fold('fl', 'floor');
fold('n', 'north');
fold('s', 'south');
fold('e', 'east');
fold('w', 'west');
fold('ne', 'northeast');
fold('nw', 'northwest');
fold('se', 'southeast');
fold('sw', 'southwest');
fold('mt', 'mount', 'mountain');
fold('ft', 'fort');
const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'];
const SUFFIX = ['st', 'nd', 'rd', 'th', 'th', 'th', 'th', 'th', 'th', 'th'];
ORDINALS.forEach((word, i) => fold(`${i + 1}${SUFFIX[i]}`, word));
// German, French, Spanish, Portuguese, Italian (the English forms above take avenue, boulevard, place)
fold('str', 'strasse', 'straße');
fold('calle', 'cl', 'cll');
fold('cra', 'carrera', 'kra', 'kr');
fold('rua', 'r');
fold('via', 'v');
fold('ch', 'chemin');
fold('rte', 'route');
fold('impasse', 'imp');
// Russian and other Cyrillic-script addresses
fold('ул', 'улица');
fold('пр', 'проспект', 'просп');
fold('пер', 'переулок');
fold('ш', 'шоссе');
fold('наб', 'набережная');
fold('д', 'дом');
fold('корп', 'корпус');
fold('стр', 'строение');
// Arabic
fold('ش', 'شارع');
// Greek
fold('οδ', 'οδος');
fold('λεωφ', 'λεωφορος');

// Words that introduce a unit within the building: all one marker, so "Suite 4", "Ste. 4", "#4",
// "Unit 4", "Apt 4", "кв. 4" and "Local 4" are one unit.
// Only words that mean nothing else in a street line ("of" in "Avenue of the Americas" does).
const UNIT_WORDS = new Set([
  '#', 'suite', 'ste', 'unit', 'apt', 'apartment', 'no', 'nr', 'number', 'num', 'room', 'rm',
  'wohnung', 'whg', 'appartement', 'app', 'bureau', 'oficina', 'depto', 'dpto', 'departamento', 'interno',
  'кв', 'квартира', 'офис', 'оф', 'пом', 'помещение',
]);
// Japanese and Chinese block numbering ("1丁目2番3号") written with separators ("1-2-3") is the
// same address: these characters count as separators.
const SEPARATOR_CHARS = /[丁目番地号號]/gu;
// "St" stays street: "St Louis Ave" and "Saint Louis Ave" differ in the key. A miss makes two
// businesses of one place (what the job's listing id then catches); a false match would make one
// business of two places, which nothing catches. So the rules fold only what is unambiguous.

/** German compounds: "Hauptstraße", "Hauptstrasse" and "Hauptstr." are one street. */
const word = (token: string) => WORDS[token] ?? token.replace(/^(\p{L}{2,})(strasse|str)$/u, '$1 str');

/** The value (0-9) of any script's decimal digit: Unicode lays each script's digits out as ten
 *  consecutive code points, zero first. */
function asciiDigits(text: string): string {
  return text.replace(/\p{Nd}/gu, (digit) => {
    let code = digit.codePointAt(0)!;
    let value = 0;
    while (value < 9 && /\p{Nd}/u.test(String.fromCodePoint(code - 1))) {
      code--;
      value++;
    }
    return String(value);
  });
}

/** Case, compatibility forms, digits and Latin and Greek accents folded. */
export function foldText(text: string): string {
  const folded = asciiDigits(text.normalize('NFKC')).toUpperCase().toLowerCase().normalize('NFD');
  return folded.replace(/([\p{Script=Latin}\p{Script=Greek}])\p{M}+/gu, '$1').normalize('NFC');
}

/** The street line as tokens: words folded, units moved to the end in one form. */
export function streetKey(address: string): string {
  const tokens = foldText(address).replace(SEPARATOR_CHARS, ' ').match(/#|[\p{L}\p{M}\p{N}]+/gu) ?? [];
  const street: string[] = [];
  const units: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (UNIT_WORDS.has(token)) {
      // "Suite 4" or "#4": the unit is the next token; a trailing marker alone names nothing.
      const next = tokens[i + 1];
      if (next !== undefined && !UNIT_WORDS.has(next)) units.push(next);
      i++;
      continue;
    }
    street.push(word(token));
  }
  // "12B" and "12 B" are one number: a single letter after a number joins it.
  const joined = street.join(' ').replace(/(^| )(\d+) (\p{L})(?= |$)/gu, '$1$2$3');
  return [joined, ...units.sort().map((u) => `#${u}`)].join(' ').trim();
}

/** A postal code as written anywhere: letters and digits only; a US ZIP+4 is its ZIP. */
export function postalKey(zip: string): string {
  const compact = foldText(zip).replace(/[^\p{L}\p{N}]/gu, '');
  return /^\d{9}$/.test(compact) ? compact.slice(0, 5) : compact;
}

/** One place's key: the same for every way of writing its address, different for another unit. */
export function placeKey(place: { address: string; zip: string }): string {
  return `${postalKey(place.zip)}|${streetKey(place.address)}`;
}

/** The provider's place id counts as the place's identity only when it names a real listing: the
 *  sample provider's ids are made from the company and ZIP (not the address), and `input:` stands
 *  for a business the provider did not find. */
export const isListingId = (placeId: string | null | undefined): placeId is string =>
  typeof placeId === 'string' && !placeId.startsWith('input:') && !placeId.startsWith('sample-');
