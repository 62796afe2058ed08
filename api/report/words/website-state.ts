// How each place's website was met, in words, for every surface (online report, PDF, e-mail,
// `npm run report`, the score card, the dashboard's own row) and the report's notes: down,
// refusing automated visitors, too large, slow, drawn by JavaScript (decision 0217); a page of
// another platform, a parked domain, a placeholder, a password prompt, a certificate warning, an
// error page (decision 0230). "Get your website back up" belongs to down and the error page.
import type { AnalysedPlace, DataPoint, ReportData, SiteReadState, WebsiteRead } from '../model/types.ts';

/** The website column's words, one per state. */
export const SITE_STATE_LABELS: Record<SiteReadState, string> = {
  read: 'Works',
  down: 'Did not answer',
  error_page: 'Answers with an error',
  social: 'Social page, no own site',
  link_in_bio: 'Link-in-bio, no own site',
  marketplace: 'Marketplace, no own site',
  parked: 'Parked domain',
  placeholder: 'Placeholder page',
  password: 'Password protected',
  cert_error: 'Certificate warning',
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

const PLATFORM_STATES = new Set<SiteReadState>(['social', 'link_in_bio', 'marketplace']);

const checks = (n: number) => `${n} website check${n === 1 ? '' : 's'}`;

/** The website's state for the business, in one sentence (null when it was read in full, or
 *  there is no website or nothing is known of it). */
export function websiteSentence(place: AnalysedPlace, own = true): string | null {
  const w = place.website;
  if (!w || (w.state === 'read' && !w.via)) return null;
  const your = own ? 'Your website' : `${place.place.name}'s website`;
  const yourHome = own ? 'Your homepage' : `${place.place.name}'s homepage`;
  const n = unseenPoints(place.dataPoints).length;
  const which = n > 0 ? ` (${unseenList(place.dataPoints)})` : '';
  const also = [w.state !== 'slow' && w.slow ? 'it was also slow to arrive' : null, w.state !== 'script_rendered' && w.scriptRendered ? 'its content is also drawn by JavaScript' : null].filter(Boolean).join(', and ');
  const tail = also ? ` ${also[0]!.toUpperCase()}${also.slice(1)}.` : '';
  const via = w.via && !PLATFORM_STATES.has(w.state) ? ` ${own ? 'Your' : 'Its'} address forwards the visitor by ${w.via.by === 'script' ? 'a script' : 'a meta refresh'} to ${w.via.to}, which we followed as a browser would.` : '';
  switch (w.state) {
    case 'down':
      return `${your} did not answer when we visited (${w.detail ?? 'no answer'}): a visitor finds no site, so its website points count as none.${via}`;
    case 'error_page':
      return `${your} answered with an error page when we visited (${w.detail ?? 'an error'}): a visitor finds no site, so its website points count as none.${via}`;
    case 'social':
    case 'link_in_bio':
    case 'marketplace':
      return `${own ? 'The website you gave' : `The website ${place.place.name} lists`} is ${w.detail ?? 'a page on another platform'}, not a website of ${own ? 'your' : 'its'} own: nothing of the platform's page (its HTTPS, its markup) is credited, the listing's facts still count, and the website points count as none${own ? ' until you have a site of your own' : ''}.`;
    case 'parked':
      return `${own ? 'Your address' : `${place.place.name}'s address`} shows ${w.detail ?? 'a parked domain page'}, not a website: a visitor finds no site yet, so its website points count as none.${via}`;
    case 'placeholder':
      return `${own ? 'Your address' : `${place.place.name}'s address`} shows ${w.detail ?? 'a placeholder page'}, not a finished website: a visitor finds no site yet, so its website points count as none.${via}`;
    case 'password':
      return `${yourHome} asks for a password (${w.detail ?? 'a login prompt'}): the server answered, but a visitor sees no site without it, so its website points count as none.${via}`;
    case 'cert_error':
      return `${your} answered, but a visitor's browser warns that it is not secure: ${w.detail ?? 'its certificate is not valid'}. HTTPS counts as none until the certificate is fixed; the page itself was read as a visitor clicking past the warning would see it${n > 0 ? `, and ${checks(n)}${which} could not be seen` : ''}.${via}${tail}`;
    case 'refused':
      return `${your} refuses automated visitors (${w.detail ?? 'a refusal'}): it is up, and a visitor's browser may be let through, but we could not read the homepage${n > 0 ? `, so ${checks(n)}${which} are not measured and are left out of the scores, not counted as missing` : ''}.${via}`;
    case 'too_large':
      return `${yourHome} is very large (${w.detail ?? 'over the limit'}): we read the first part, and ${n > 0 ? `${checks(n)} of what was not read${which} are not measured, not counted as missing` : 'everything checked was in it'}.${via}${tail}`;
    case 'slow':
      return `${your} answered slowly (${w.detail ?? 'slow'}): its response time is measured${n > 0 ? `, and ${checks(n)} of what had not arrived${which} are not measured, not counted as missing` : ''}.${via}${tail}`;
    case 'script_rendered':
      return `${yourHome}'s content is drawn by JavaScript, which we do not run: ${n > 0 ? `${checks(n)} of what the page shows${which} could not be seen and are not measured, not counted as missing` : 'everything checked was in its HTML'}.${via}${tail}`;
    case 'read':
      return via ? via.trim() : null;
  }
}

/** The competitors whose website was not read in full, one clause each ("Bay Dental: refuses
 *  automated visitors (HTTP 403)"), or null when all were. */
export function competitorWebsitesSentence(competitors: AnalysedPlace[]): string | null {
  const odd = competitors.filter((c) => c.website && (c.website.state !== 'read' || c.website.via));
  if (odd.length === 0) return null;
  const clause = (c: AnalysedPlace) => {
    const w = c.website!;
    const n = unseenPoints(c.dataPoints).length;
    const via = w.via && !PLATFORM_STATES.has(w.state) ? `, reached by ${w.via.by === 'script' ? 'a script' : 'a meta refresh'} forwarding to ${w.via.to}` : '';
    return `${c.place.name}: ${SITE_STATE_LABELS[w.state].toLowerCase()}${w.detail ? ` (${w.detail})` : ''}${via}${n > 0 ? `, ${checks(n)} not seen` : ''}`;
  };
  return `Competitors' websites not read in full: ${odd.map(clause).join('; ')}. A website that refuses automated visitors, is cut short or is drawn by JavaScript is not counted as missing what could not be seen; only a site that did not answer or answers with an error page counts as down. A social, link-in-bio or marketplace page, a parked domain, a placeholder or a password prompt is not a website of its own: its website points count as none.`;
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
export function websiteRead(site: { state: SiteReadState; detail: string | null; slow: boolean; scriptRendered: boolean; clientRedirect?: { by: 'meta refresh' | 'script'; to: string } | null }, points: DataPoint[]): WebsiteRead {
  return { state: site.state, detail: site.detail, slow: site.slow, scriptRendered: site.scriptRendered, unseen: unseenPoints(points).length, ...(site.clientRedirect ? { via: site.clientRedirect } : {}) };
}

/** The website's state in a few words for the score card, or null when it works. */
export function websiteCardLine(place: AnalysedPlace): string | null {
  const w = place.website;
  if (!w || w.state === 'read') return null;
  return `Website: ${SITE_STATE_LABELS[w.state]}`;
}
