// What a web address is before anything is fetched (decision 0230): a page on someone else's
// platform (a social profile, a link-in-bio page, a marketplace or ordering page) is not the
// business's own website, whatever that platform's page shows. Matched by host suffix, so every
// country domain, sub-domain and mobile host of a platform counts ("m.facebook.com",
// "fr-ca.facebook.com", "www.yelp.co.uk").

export type PlatformKind = 'social' | 'link_in_bio' | 'marketplace';

export interface Platform {
  kind: PlatformKind;
  /** The platform's name as a reader knows it ("Facebook", "Linktree", "DoorDash"). */
  name: string;
}

/** A registrable domain's country endings a platform uses (facebook.com, yelp.co.uk, etsy.de...). */
const COUNTRY = '(?:com|net|org|co|io|me|[a-z]{2}|com?\\.[a-z]{2})';

/** [name, host pattern without the country ending or with one, kind]. A pattern ending in a dot
 *  takes any country ending; a path pattern, when given, must match too (Google's own pages). */
const PLATFORMS: Array<{ name: string; host: RegExp; path?: RegExp; kind: PlatformKind }> = [
  ...[
    ['Facebook', 'facebook\\.', 'fb\\.com', 'fb\\.me', 'fb\\.watch'],
    ['Instagram', 'instagram\\.', 'instagr\\.am'],
    ['TikTok', 'tiktok\\.'],
    ['X (Twitter)', 'twitter\\.', 'x\\.com'],
    ['LinkedIn', 'linkedin\\.', 'lnkd\\.in'],
    ['Yelp', 'yelp\\.'],
    ['Pinterest', 'pinterest\\.'],
    ['YouTube', 'youtube\\.', 'youtu\\.be'],
    ['Threads', 'threads\\.net'],
    ['Snapchat', 'snapchat\\.'],
    ['Nextdoor', 'nextdoor\\.'],
    ['Tripadvisor', 'tripadvisor\\.'],
    ['Foursquare', 'foursquare\\.'],
    ['Houzz', 'houzz\\.'],
    ['Angi', 'angi\\.com', 'angieslist\\.com', 'homeadvisor\\.com'],
    ['Thumbtack', 'thumbtack\\.com'],
    ['Bark', 'bark\\.com'],
    ['Yellow Pages', 'yellowpages\\.', 'yell\\.com'],
    ['Better Business Bureau', 'bbb\\.org'],
    ['WhatsApp', 'wa\\.me', 'whatsapp\\.'],
    ['Telegram', 't\\.me', 'telegram\\.'],
    ['Google Business Profile', 'business\\.site', 'g\\.page', 'g\\.co', 'goo\\.gl', 'maps\\.app\\.goo\\.gl', 'business\\.google\\.', 'maps\\.google\\.'],
  ].map(([name, ...hosts]) => ({ name: name!, host: hostRe(hosts), kind: 'social' as const })),
  // Google's own pages: a map or a business profile, not a search engine's homepage.
  { name: 'Google Business Profile', host: hostRe(['google\\.']), path: /^\/(maps|search|local|business)\b/i, kind: 'social' },
  ...[
    ['Linktree', 'linktr\\.ee', 'linktree\\.'],
    ['Beacons', 'beacons\\.ai', 'beacons\\.page'],
    ['Carrd', 'carrd\\.co'],
    ['Taplink', 'taplink\\.'],
    ['Lnk.Bio', 'lnk\\.bio'],
    ['Campsite', 'campsite\\.bio'],
    ['Bio.site', 'bio\\.site'],
    ['Later Linkin.bio', 'linkin\\.bio'],
    ['Stan', 'stan\\.store'],
    ['Milkshake', 'msha\\.ke'],
    ['Solo.to', 'solo\\.to'],
    ['Linkpop', 'linkpop\\.com'],
    ['Link in bio', 'linkbio\\.co', 'linkfly\\.to', 'hoo\\.be', 'snipfeed\\.co', 'koji\\.to', 'withkoji\\.com', 'tap\\.bio', 'flowcode\\.com', 'bio\\.link', 'allmylinks\\.com', 'direct\\.me', 'about\\.me'],
  ].map(([name, ...hosts]) => ({ name: name!, host: hostRe(hosts), kind: 'link_in_bio' as const })),
  ...[
    ['DoorDash', 'doordash\\.', 'order\\.online'],
    ['Uber Eats', 'ubereats\\.'],
    ['Grubhub', 'grubhub\\.', 'seamless\\.com'],
    ['Postmates', 'postmates\\.'],
    ['Deliveroo', 'deliveroo\\.'],
    ['Just Eat', 'just-eat\\.', 'justeat\\.', 'skipthedishes\\.com', 'lieferando\\.', 'thuisbezorgd\\.nl'],
    ['Glovo', 'glovoapp\\.'],
    ['Wolt', 'wolt\\.'],
    ['Toast', 'toasttab\\.com'],
    ['ChowNow', 'chownow\\.com'],
    ['Slice', 'slicelife\\.com'],
    ['OpenTable', 'opentable\\.'],
    ['Resy', 'resy\\.com'],
    ['Etsy', 'etsy\\.', 'etsy\\.me'],
    ['Amazon', 'amazon\\.', 'amzn\\.to'],
    ['eBay', 'ebay\\.'],
    ['Shopee', 'shopee\\.'],
    ['Mercado Libre', 'mercadolibre\\.', 'mercadolivre\\.'],
    ['Booksy', 'booksy\\.com'],
    ['Vagaro', 'vagaro\\.com'],
    ['Fresha', 'fresha\\.com'],
    ['StyleSeat', 'styleseat\\.com'],
    ['Square Appointments', 'squareup\\.com'],
    ['Airbnb', 'airbnb\\.'],
    ['Booking.com', 'booking\\.com'],
    ['Zocdoc', 'zocdoc\\.com'],
    ['Groupon', 'groupon\\.'],
  ].map(([name, ...hosts]) => ({ name: name!, host: hostRe(hosts), kind: 'marketplace' as const })),
];

/** A host pattern matching the host itself or any sub-domain of it; "name\\." takes a country ending. */
function hostRe(hosts: string[]): RegExp {
  return new RegExp(`(?:^|\\.)(?:${hosts.map((h) => (h.endsWith('\\.') ? `${h}${COUNTRY}` : h)).join('|')})$`, 'i');
}

/** The platform an address is a page of, or null for an address of the business's own. */
export function platformOf(address: string): Platform | null {
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(address.trim()) ? address.trim() : `https://${address.trim()}`);
  } catch {
    return null;
  }
  const host = url.hostname.replace(/\.$/, '').toLowerCase();
  const hit = PLATFORMS.find((p) => p.host.test(host) && (!p.path || p.path.test(url.pathname)));
  return hit ? { kind: hit.kind, name: hit.name } : null;
}

/** "a Facebook page", "a Linktree link-in-bio page", "a DoorDash ordering page". */
export function platformPhrase(p: Platform): string {
  const name = p.name;
  const article = /^([AEIOU]|X\b)/i.test(name) ? 'an' : 'a';
  if (p.kind === 'link_in_bio') return `${article} ${name} link-in-bio page`;
  if (p.kind === 'marketplace') return `${article} ${name} page`;
  return `${article} ${name} page`;
}
