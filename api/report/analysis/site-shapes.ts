// Pages that answer but are not a website yet, and pages that send the visitor on (decision 0230):
// a parked or for-sale domain, a placeholder (under construction, coming soon, a web server's
// default page), a password prompt, and a redirect by meta refresh or script. Each is recognised
// only on a short page, so a real site that mentions "coming soon" or sells domains stays a site.
import * as cheerio from 'cheerio';

/** A page this short (visible words) may be a shape below; a longer one is a site. */
const SHORT_PAGE_WORDS = 150;

/** Parking services and domain marketplaces, by what their pages load or link to. */
const PARKING_SIGNS = /sedoparking\.com|parkingcrew\.net|bodis\.com|above\.com\/park|parklogic|dan\.com\/|afternic\.com|hugedomains\.com|undeveloped\.com|domainmarket\.com|porkbun\.com\/park|namecheap\.com\/domains\/registration|\/lander\b|window\.park\b|caf\.js|domain-parking|parked-content|uniregistry|sav\.com\/domain|epik\.com\/.*(buy|for-sale)/i;
/** "This domain may be for sale", in the languages small businesses' registrars answer in. */
const FOR_SALE = [
  /\b(this|the) domain (name )?(may be|is|could be) for sale\b/i,
  /\bbuy this domain\b/i,
  /\b(domain|website) (is )?for sale\b/i,
  /\bthis domain (has been|is) (registered|parked)\b/i,
  /\b(is|was) parked (free|for free)?\b/i,
  /\bparked (domain|page)\b/i,
  /\bmake an offer on this domain\b/i,
  /\bdiese domain (steht zum verkauf|kaufen|ist zu verkaufen|wurde registriert)\b/i,
  /\bdomain (kaufen|zu verkaufen|steht zum verkauf)\b/i,
  /\bce (nom de )?domaine (est|peut être) à vendre\b/i,
  /\bnom de domaine à vendre\b/i,
  /\b(este|el) dominio (está|puede estar) (a la venta|en venta)\b/i,
  /\bdominio en venta\b/i,
  /\beste domínio (está|pode estar) à venda\b/i,
  /\bdomínio à venda\b/i,
  /\bquesto dominio è in vendita\b/i,
  /\bdominio in vendita\b/i,
  /\bdit domein is te koop\b/i,
  /\bdomeinnaam te koop\b/i,
  /\bdomän(en)? (är )?till salu\b/i,
];

/** The parking page's sign, or null: a short page saying the domain is for sale or parked, or a
 *  page of a parking service. */
export function parkedPage(html: string, text: string, words: number): boolean {
  if (words > SHORT_PAGE_WORDS) return false;
  const title = /<title[^>]*>([^<]*)/i.exec(html)?.[1] ?? '';
  if (FOR_SALE.some((re) => re.test(`${title} ${text}`))) return true;
  return PARKING_SIGNS.test(html) && words < 60;
}

/** A web server's default page, by its title or heading. */
const SERVER_DEFAULTS = /welcome to nginx!?|^\s*it works!?\s*$|apache2? (ubuntu|debian|centos)? ?default page|test page for the (apache|nginx) http server|apache http server test page|iis windows server|internet information services|default web site page|website is not yet configured|this is the default welcome page|welcome to (your )?(new )?(wordpress )?site|hello world!?$|future home of something quite cool|index of \//i;
/** "Under construction", "coming soon", in the languages small businesses build in. */
const NOT_READY = [
  /\b(site|website|page|web ?site)? ?(is )?(currently )?under construction\b/i,
  /\b(our )?(new )?(web ?site|site|page)? ?(is )?coming soon\b/i,
  /\bwe('| a)re (launching|opening) soon\b/i,
  /\blaunching soon\b/i,
  /\bsite (is )?being built\b/i,
  /\ben construcci[oó]n\b/i,
  /\bpr[oó]ximamente\b/i,
  /\ben construction\b/i,
  /\bbient[oô]t disponible\b/i,
  /\b(site )?en cours de (construction|cr[ée]ation)\b/i,
  /\b(im aufbau|in bearbeitung|demn[äa]chst (online|verf[üu]gbar))\b/i,
  /\bbaustelle\b/i,
  /\bin (costruzione|allestimento)\b/i,
  /\bprossimamente\b/i,
  /\bem (constru[çc][ãa]o|breve)\b/i,
  /\bin aanbouw\b/i,
  /\bbinnenkort (online|beschikbaar)\b/i,
  /\bunder uppbyggnad\b/i,
];

/** A placeholder: a short page saying the site is not there yet, or a web server's default page.
 *  Returns what it is, in words, or null. */
export function placeholderPage(html: string, text: string, words: number): string | null {
  if (words > SHORT_PAGE_WORDS) return null;
  const $ = cheerio.load(html);
  const title = $('title').first().text().trim();
  const heading = $('h1').first().text().trim();
  for (const part of [title, heading]) if (part && SERVER_DEFAULTS.test(part)) return `a web server's default page ("${part.slice(0, 60)}")`;
  const said = NOT_READY.map((re) => re.exec(`${title} · ${heading} · ${text}`)).find(Boolean);
  return said ? `a placeholder page ("${said[0].trim().slice(0, 60)}")` : null;
}

/** A password prompt: HTTP 401 (a browser's login box), or a short page whose form asks for a
 *  password (401, 403 or 200: a site locked until it opens, a members-only homepage). */
export function passwordWall(status: number, headers: Record<string, string>, html: string, words: number): string | null {
  if (status === 401) return headers['www-authenticate'] ? `HTTP 401, a login box (${headers['www-authenticate'].split(/[\s,]/)[0]})` : 'HTTP 401';
  if (words > SHORT_PAGE_WORDS || !/<input[^>]+type\s*=\s*["']?password/i.test(html)) return null;
  return `HTTP ${status}, a page asking for a password`;
}

/** Where a page sends the visitor at once, as a browser would go: a meta refresh (of at most 10
 *  seconds), or a script setting the location on a short page. Null when it stays. */
export function clientRedirect(html: string, pageUrl: URL, words: number): { by: 'meta refresh' | 'script'; to: string } | null {
  const $ = cheerio.load(html);
  const refresh = $('meta[http-equiv]').filter((_, el) => ($(el).attr('http-equiv') ?? '').toLowerCase() === 'refresh').first().attr('content');
  const m = refresh ? /^\s*(\d+(?:\.\d+)?)\s*[;,]\s*(?:url\s*=\s*)?['"]?([^'"\s]+)['"]?/i.exec(refresh) : null;
  if (m && Number(m[1]) <= 10) return resolve('meta refresh', m[2]!, pageUrl);
  if (words > 40) return null;
  const scripts = $('script:not([src])').map((_, el) => $(el).text()).get().join('\n');
  const s = /(?:window\.|document\.|top\.|self\.)?location(?:\.href)?\s*=\s*["'`]([^"'`]+)["'`]|location\.(?:replace|assign)\(\s*["'`]([^"'`]+)["'`]\s*\)/.exec(scripts);
  return s ? resolve('script', (s[1] ?? s[2])!, pageUrl) : null;
}

function resolve(by: 'meta refresh' | 'script', target: string, pageUrl: URL): { by: 'meta refresh' | 'script'; to: string } | null {
  try {
    const to = new URL(target, pageUrl);
    if (!/^https?:$/.test(to.protocol) || to.href === pageUrl.href) return null;
    return { by, to: to.href };
  } catch {
    return null;
  }
}
