// Who an AI answer names, in what order, and which sites it cites (issue 50, decision 0301). The
// names are matched to the business and its competitors with the report's own matcher
// (api/report/analysis/matching.ts: `sameName`, any script, "Brightwater Dental" for "Brightwater
// Family Dental", the name the owner typed as well as the listing's): an answer names a business
// in a list item's lead, in bold, or anywhere in its prose.
import type { SourceKind } from '../../../common/ai-visibility.ts';
import { brandDomain, fold, nameTokens, sameName } from '../../report/analysis/matching.ts';

/** A business the answers may name: the business itself (key "own") or a competitor. */
export interface Contender {
  key: string;
  name: string;
  /** Other names it goes by (the name the owner typed, a listing's other spelling). */
  otherNames?: string[];
  website?: string | null;
}

export interface ReadAnswer {
  /** Every business the answer names, in order: a contender's key, or null for another business. */
  named: Array<{ key: string | null; name: string }>;
  /** Distinct domains cited. */
  domains: string[];
}

// A list item: "1. …", "2) …", "- …", "* …", "• …".
const ITEM = /^\s*(?:\d{1,2}[.)]|[-*•+])\s+(.+)$/u;
const BOLD = /\*\*([^*\n]{2,80})\*\*|__([^_\n]{2,80})__/gu;
// Where a list item's lead name ends: a dash, a colon, an opening bracket, a citation mark.
const LEAD_END = /\s+[-–—|]\s+|:\s|\s\(|\s\[|\[\d+\]|\s-$|[.;]\s/u;
const MAX_NAME_WORDS = 8;

function clean(name: string): string {
  return name
    .replace(/\*\*|__|\[\d+\]|\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/^[\s"'“”‘’]+|[\s"'“”‘’.,:;!?]+$/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A candidate that may be a business's name: a few words, starting with a capital or a letter of
 *  a script without capitals. */
function nameLike(name: string): boolean {
  const words = name.split(' ').filter(Boolean);
  if (words.length === 0 || words.length > MAX_NAME_WORDS) return false;
  const first = name.charAt(0);
  return /[\p{Lu}\p{N}]/u.test(first) || (/\p{L}/u.test(first) && first.toLowerCase() === first.toUpperCase());
}

/** The names an answer's structure sets apart (list leads, bold), each with its place. */
function structuredNames(lines: string[]): Array<{ name: string; at: number }> {
  const out: Array<{ name: string; at: number }> = [];
  lines.forEach((line, i) => {
    const item = ITEM.exec(line);
    const bolds = [...line.matchAll(BOLD)].map((m) => ({ text: m[1] ?? m[2] ?? '', index: m.index ?? 0 }));
    if (item) {
      const body = item[1]!;
      const leadBold = bolds.find((b) => b.index <= line.indexOf(body) + 1);
      const lead = clean(leadBold ? leadBold.text : body.split(LEAD_END)[0]!);
      if (nameLike(lead)) out.push({ name: lead, at: i * 10_000 });
      for (const b of bolds) if (b !== leadBold && nameLike(clean(b.text))) out.push({ name: clean(b.text), at: i * 10_000 + b.index + 1 });
    } else for (const b of bolds) if (nameLike(clean(b.text))) out.push({ name: clean(b.text), at: i * 10_000 + b.index + 1 });
  });
  return out;
}

/** Where a contender's name (or another of its names) is written in running text: windows of the
 *  line's words about the name's length, around each place its first telling word is, compared
 *  with `sameName`. */
function proseAt(lines: string[], contender: Contender): number | null {
  const names = [contender.name, ...(contender.otherNames ?? [])].map((n) => ({ n, folded: fold(n), head: nameTokens(n)[0] })).filter((x) => x.folded && x.head);
  for (let i = 0; i < lines.length; i++) {
    const folded = fold(lines[i]!);
    for (const { n, folded: name, head } of names) {
      // A name in a script written without spaces is found inside the run of text around it.
      if (!/[a-z0-9]/.test(name)) {
        if (folded.replace(/ /g, '').includes(name.replace(/ /g, ''))) return i * 10_000;
        continue;
      }
      const words = folded.split(' ');
      const len = name.split(' ').length;
      for (let at = words.indexOf(head!); at !== -1; at = words.indexOf(head!, at + 1)) {
        for (let size = Math.max(1, len - 1); size <= len + 1; size++) {
          for (let w = Math.max(0, at - size + 1); w <= at && w + size <= words.length; w++) {
            if (namesAs(n, words.slice(w, w + size).join(' '))) return i * 10_000 + w;
          }
        }
      }
    }
  }
  return null;
}

/** `sameName`, and the text holds the name's first telling word: an answer has no phone or address
 *  to overrule a name, so "Family Dental Care" is not "Brightwater Family Dental" (0.67 by words). */
function namesAs(name: string, text: string): boolean {
  const head = nameTokens(name)[0];
  return head !== undefined && sameName(name, text) && nameTokens(text).includes(head);
}

const matches = (c: Contender, name: string) => [c.name, ...(c.otherNames ?? [])].some((n) => namesAs(n, name));

/** A cited page's domain: the host without "www."; a bare domain (Gemini's titles) as it is. */
export function domainOf(source: string): string | null {
  const s = source.trim().toLowerCase();
  if (!s) return null;
  try {
    const host = new URL(/^[a-z][a-z0-9+.-]*:\/\//.test(s) ? s : `https://${s}`).hostname;
    const bare = host.replace(/^www\d?\./, '').replace(/\.$/, '');
    return bare.includes('.') ? bare : null;
  } catch {
    return null;
  }
}

/** Reads one answer: whom it names, in order, and the domains it cites. */
export function readAnswer(text: string, sources: string[], contenders: Contender[]): ReadAnswer {
  const lines = text.split(/\r?\n/);
  const found: Array<{ key: string | null; name: string; at: number }> = [];
  for (const s of structuredNames(lines)) found.push({ key: contenders.find((c) => matches(c, s.name))?.key ?? null, name: s.name, at: s.at });
  for (const c of contenders) {
    if (found.some((f) => f.key === c.key)) continue;
    const at = proseAt(lines, c);
    if (at !== null) found.push({ key: c.key, name: c.name, at });
  }
  found.sort((a, b) => a.at - b.at);
  const named: ReadAnswer['named'] = [];
  for (const f of found) {
    const dup = f.key !== null ? named.some((n) => n.key === f.key) : named.some((n) => n.key === null && sameName(n.name, f.name));
    if (!dup) named.push({ key: f.key, name: f.name });
  }
  const domains = [...new Set(sources.map(domainOf).filter((d): d is string => d !== null))];
  return { named, domains };
}

const REVIEW_SITES = ['yelp.com', 'google.com', 'tripadvisor.com', 'healthgrades.com', 'zocdoc.com', 'trustpilot.com', 'angi.com', 'angieslist.com', 'houzz.com', 'opentable.com', 'vitals.com', 'ratemds.com', 'birdeye.com', 'reddit.com', 'facebook.com', 'nextdoor.com'];
const DIRECTORIES = ['yellowpages.com', 'bbb.org', 'mapquest.com', 'manta.com', 'superpages.com', 'citysearch.com', 'foursquare.com', 'thumbtack.com', 'homeadvisor.com', 'expertise.com', 'threebestrated.com', 'bing.com', 'apple.com', 'chamberofcommerce.com'];
const under = (domain: string, list: string[]) => list.some((d) => domain === d || domain.endsWith(`.${d}`));

/** What a cited domain is to the business: its own site, a competitor's, a review site, a directory. */
export function sourceKind(domain: string, own: Contender, competitors: Contender[]): SourceKind {
  const brand = brandDomain(`https://${domain}`);
  if (brand && brand === brandDomain(own.website)) return 'own';
  if (brand && competitors.some((c) => brandDomain(c.website) === brand)) return 'competitor';
  if (under(domain, REVIEW_SITES)) return 'review_site';
  if (under(domain, DIRECTORIES)) return 'directory';
  return 'other';
}
