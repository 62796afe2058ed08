// How each place's website was met, in words, for every surface (online report, PDF, e-mail,
// `npm run report`) and the report's notes: down, refusing automated visitors, too large, slow,
// drawn by JavaScript (decision 0217). "Get your website back up" belongs to down alone.
import type { AnalysedPlace, DataPoint, ReportData, SiteReadState, WebsiteRead } from '../types.ts';

/** The website column's words, one per state. */
export const SITE_STATE_LABELS: Record<SiteReadState, string> = {
  read: 'Works',
  down: 'Did not answer',
  refused: 'Refuses automated visitors',
  too_large: 'Works, very large page',
  slow: 'Works, slowly',
  script_rendered: 'Works, drawn by JavaScript',
};

/** The website data points that could not be seen (unknown because of the page, not missing). */
export const unseenPoints = (points: DataPoint[]) => points.filter((p) => p.status === 'unknown' && p.unseen);

/** "Contact form, Click-to-call link, Words on the homepage and 17 more" (the scored ones first). */
export function unseenList(points: DataPoint[], shown = 5): string {
  const list = unseenPoints(points).sort((a, b) => Number(b.score !== null) - Number(a.score !== null));
  const names = list.slice(0, shown).map((p) => p.label);
  const more = list.length - names.length;
  return more > 0 ? `${names.join(', ')} and ${more} more` : names.join(', ');
}

const checks = (n: number) => `${n} website check${n === 1 ? '' : 's'}`;

/** The website's state for the business, in one sentence (null when it was read in full, or
 *  there is no website or nothing is known of it). */
export function websiteSentence(place: AnalysedPlace, own = true): string | null {
  const w = place.website;
  if (!w || w.state === 'read') return null;
  const your = own ? 'Your website' : `${place.place.name}'s website`;
  const yourHome = own ? 'Your homepage' : `${place.place.name}'s homepage`;
  const n = unseenPoints(place.dataPoints).length;
  const which = n > 0 ? ` (${unseenList(place.dataPoints)})` : '';
  const also = [w.state !== 'slow' && w.slow ? 'it was also slow to arrive' : null, w.state !== 'script_rendered' && w.scriptRendered ? 'its content is also drawn by JavaScript' : null].filter(Boolean).join(', and ');
  const tail = also ? ` ${also[0]!.toUpperCase()}${also.slice(1)}.` : '';
  switch (w.state) {
    case 'down':
      return `${your} did not answer when we visited (${w.detail ?? 'no answer'}): a visitor finds no site, so its website points count as none.`;
    case 'refused':
      return `${your} refuses automated visitors (${w.detail ?? 'a refusal'}): it is up, and a visitor's browser may be let through, but we could not read the homepage${n > 0 ? `, so ${checks(n)}${which} are not measured and are left out of the scores, not counted as missing` : ''}.`;
    case 'too_large':
      return `${yourHome} is very large (${w.detail ?? 'over the limit'}): we read the first part, and ${n > 0 ? `${checks(n)} of what was not read${which} are not measured, not counted as missing` : 'everything checked was in it'}.${tail}`;
    case 'slow':
      return `${your} answered slowly (${w.detail ?? 'slow'}): its response time is measured${n > 0 ? `, and ${checks(n)} of what had not arrived${which} are not measured, not counted as missing` : ''}.${tail}`;
    case 'script_rendered':
      return `${yourHome}'s content is drawn by JavaScript, which we do not run: ${n > 0 ? `${checks(n)} of what the page shows${which} could not be seen and are not measured, not counted as missing` : 'everything checked was in its HTML'}.${tail}`;
  }
}

/** The competitors whose website was not read in full, one clause each ("Bay Dental: refuses
 *  automated visitors (HTTP 403)"), or null when all were. */
export function competitorWebsitesSentence(competitors: AnalysedPlace[]): string | null {
  const odd = competitors.filter((c) => c.website && c.website.state !== 'read');
  if (odd.length === 0) return null;
  const clause = (c: AnalysedPlace) => {
    const w = c.website!;
    const n = unseenPoints(c.dataPoints).length;
    return `${c.place.name}: ${SITE_STATE_LABELS[w.state].toLowerCase()}${w.detail ? ` (${w.detail})` : ''}${n > 0 ? `, ${checks(n)} not seen` : ''}`;
  };
  return `Competitors' websites not read in full: ${odd.map(clause).join('; ')}. A website that refuses automated visitors, is cut short or is drawn by JavaScript is not counted as missing what could not be seen; only a site that did not answer counts as down.`;
}

/** What the report knows of a place's website from its data points, for reports made before the
 *  state was kept: works, or did not answer. */
function legacyState(place: AnalysedPlace): SiteReadState | null {
  const reachable = place.dataPoints.find((p) => p.key === 'site.reachable');
  if (!reachable || reachable.status !== 'measured') return null;
  return reachable.value === true ? 'read' : 'down';
}

/** The website column: none listed, not given by the source, or how it was met. */
export function websiteStatus(place: AnalysedPlace, data: ReportData): string {
  if (!place.place.website) return data.provider === 'yelp' && !place.isMainBusiness ? 'Not given by Yelp' : 'None listed';
  const state = place.website?.state ?? legacyState(place);
  return state ? SITE_STATE_LABELS[state] : 'Listed';
}

/** The record the report keeps of how a website was met. */
export function websiteRead(site: { state: SiteReadState; detail: string | null; slow: boolean; scriptRendered: boolean }, points: DataPoint[]): WebsiteRead {
  return { state: site.state, detail: site.detail, slow: site.slow, scriptRendered: site.scriptRendered, unseen: unseenPoints(points).length };
}
