// The business's listing and homepage against the market's, from the data points already
// measured (Place Details fields; the homepage's title, main heading and meta description): what
// the business has, how many competitors have it, and the fix for each gap.
import type { AnalysedPlace, DataPoint, ReportData } from '../model/types.ts';

export interface ComparisonRow {
  label: string;
  yours: string;
  market: string;
  /** The business lacks what at least half of the competitors measured have (or is below their
   *  median); for the homepage's local signals, any one missing. */
  gap: boolean;
  fix: string | null;
}

type Field = { key: string; label: string; fix: string; kind: 'bool' | 'count' | 'text' };

const LISTING_FIELDS: Field[] = [
  { key: 'listing.operational', label: 'Listed as open', kind: 'bool', fix: 'Correct the status on your listing: it tells customers you are closed.' },
  { key: 'listing.has_phone', label: 'Phone number', kind: 'bool', fix: 'Add your phone number to the listing.' },
  { key: 'listing.has_website', label: 'Website link', kind: 'bool', fix: 'Link your website from the listing.' },
  { key: 'listing.has_hours', label: 'Opening hours', kind: 'bool', fix: 'Add your regular opening hours to the listing.' },
  { key: 'listing.photos', label: 'Photos', kind: 'count', fix: 'Add recent photos of your premises, team and work.' },
  { key: 'listing.editorial_summary', label: 'Description', kind: 'bool', fix: 'Add a description of what you do.' },
  { key: 'listing.attributes_stated', label: 'Amenities stated', kind: 'count', fix: 'State your accessibility, payment and parking options.' },
  { key: 'listing.price_level', label: 'Price level', kind: 'text', fix: 'Set your price level on the listing.' },
];

const SIGNAL_FIELDS: Field[] = [
  { key: 'site.city_in_title', label: 'City in the page title', kind: 'bool', fix: 'Put your city in your homepage title.' },
  { key: 'site.category_in_title', label: 'Category in the page title', kind: 'bool', fix: 'Put what you do in your homepage title.' },
  { key: 'site.city_in_h1', label: 'City in the main heading', kind: 'bool', fix: 'Name your city in the main heading (H1).' },
  { key: 'site.category_in_h1', label: 'Category in the main heading', kind: 'bool', fix: 'Name what you do in the main heading (H1).' },
  { key: 'site.city_in_description', label: 'City in the meta description', kind: 'bool', fix: 'Name your city in the meta description.' },
  { key: 'site.category_in_description', label: 'Category in the meta description', kind: 'bool', fix: 'Name what you do in the meta description.' },
];

const point = (p: AnalysedPlace, key: string): DataPoint | undefined => p.dataPoints.find((d) => d.key === key);
const has = (d: DataPoint, kind: Field['kind']) => (kind === 'bool' ? d.value === true : kind === 'count' ? typeof d.value === 'number' && d.value > 0 : d.value !== null && d.value !== '');

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** `anyGap`: a missing field is a gap whatever the competitors do (the homepage's local signals
 *  cost nothing to add); otherwise only what at least half the market has. */
function rows(data: ReportData, fields: Field[], anyGap = false): ComparisonRow[] {
  const out: ComparisonRow[] = [];
  for (const f of fields) {
    const own = point(data.business, f.key);
    const theirs = data.competitors.map((c) => point(c, f.key)).filter((d): d is DataPoint => d?.status === 'measured');
    // A field the source gives for nobody here is no comparison.
    if (own?.status !== 'measured' && theirs.length === 0) continue;
    const yours = own?.status !== 'measured' ? (own?.unseen ? 'Not seen' : 'Unknown') : f.kind === 'count' ? String(own.value ?? 0) : f.kind === 'text' ? (has(own, f.kind) ? String(own.value) : 'No') : has(own, f.kind) ? 'Yes' : 'No';
    const lacks = own?.status === 'measured' && !has(own, f.kind);
    let market = 'Unknown';
    let gap = anyGap && lacks;
    if (theirs.length > 0 && f.kind === 'count') {
      const m = median(theirs.map((d) => (typeof d.value === 'number' ? d.value : 0)));
      market = `median ${Number.isInteger(m) ? m : m.toFixed(1)}`;
      gap = own?.status === 'measured' && typeof own.value === 'number' && own.value < m;
    } else if (theirs.length > 0) {
      const n = theirs.filter((d) => has(d, f.kind)).length;
      market = `${n} of ${theirs.length}`;
      gap = lacks && (anyGap || n * 2 >= theirs.length);
    }
    out.push({ label: f.label, yours, market, gap, fix: gap ? f.fix : null });
  }
  return out;
}

/** The listing's fields against the competitors' listings. */
export const listingComparison = (data: ReportData) => rows(data, LISTING_FIELDS);
/** City and category in the homepage's title, main heading and meta description, against the competitors' sites. */
export const localSignals = (data: ReportData) => rows(data, SIGNAL_FIELDS, true);
