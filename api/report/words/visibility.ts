// The local visibility grid as every rendering shows it (PDF page, online report, e-mail, the CLI,
// the dashboard card): the business's rank in each cell, coloured by band, the business marked at
// the centre, and its Share of Local Voice, ARP and ATRP. One view, drawn by each renderer.
import { cellText, rankBand, TOP_RANKS, type RankBand } from '../../../common/visibility-bands.ts';
import { gridMetrics, type GridMetrics } from '../analysis/visibility.ts';

export { RANK_BAND_ORDER, RANK_BANDS } from '../../../common/visibility-bands.ts';
import type { AnalysedPlace, ProviderName, ReportData, VisibilityScan } from '../model/types.ts';

export const VISIBILITY_TITLE = 'Local visibility';
export const NOT_MEASURED = 'Not measured';
const PROVIDER_LABEL: Record<ProviderName, string> = { sample: 'the sample data provider', google: 'Google Places', yelp: 'Yelp' };

export interface GridCell {
  rank: number | null;
  band: RankBand;
  text: string;
  /** The business's own location (the grid's centre). */
  centre: boolean;
}

export interface KeywordView {
  keyword: string;
  size: number;
  /** Row by row, north to south, each west to east. */
  cells: GridCell[];
  metrics: GridMetrics;
}

export interface VisibilityView {
  measured: boolean;
  sampleData: boolean;
  /** Over every keyword: the data points' figures; null when not measured. */
  overall: GridMetrics | null;
  keywords: KeywordView[];
  /** The grid's geometry and cost, in one or two sentences. */
  about: string;
  /** Why it was not measured, or what was left out. */
  reason: string | null;
}

export const fmtSolv = (n: number) => `${n.toFixed(2)}%`;

/** "Share of Local Voice 33.33% · ARP 2.50 · ATRP 8.00". */
export const metricsText = (m: GridMetrics) => `Share of Local Voice ${fmtSolv(m.solv)} · ARP ${m.arp === null ? '–' : m.arp.toFixed(2)} · ATRP ${m.atrp.toFixed(2)}`;

function about(v: VisibilityScan): string {
  const searches = `${v.calls} search${v.calls === 1 ? '' : 'es'} sent to ${PROVIDER_LABEL[v.provider]}${v.cached ? ` and ${v.cached} answered from searches made earlier today` : ''}`;
  return `A ${v.size}×${v.size} grid of local searches centred on your business, reaching ${v.radiusMiles.toFixed(2)} miles each way with points ${v.spacingMiles.toFixed(2)} miles apart (${v.basis}). ${searches.charAt(0).toUpperCase()}${searches.slice(1)}.`;
}

/** The business's grids and metrics; null for a report made before the grid existed. */
export function visibilityView(data: ReportData): VisibilityView | null {
  const v = data.visibility;
  if (!v) return null;
  const id = data.business.place.placeId;
  const centre = Math.floor((v.size * v.size) / 2);
  const keywords = v.status === 'measured'
    ? v.keywords.map((k) => {
        const ranks = k.ranks[id] ?? v.points.map(() => null);
        return { keyword: k.keyword, size: v.size, cells: ranks.map((rank, i) => ({ rank, band: rankBand(rank), text: cellText(rank), centre: i === centre })), metrics: gridMetrics([ranks]) };
      })
    : [];
  return {
    measured: keywords.length > 0,
    sampleData: v.sampleData,
    overall: keywords.length ? gridMetrics(keywords.map((k) => k.cells.map((c) => c.rank))) : null,
    keywords,
    about: about(v),
    reason: v.reason,
  };
}

/** One line for the CLI and the e-mail's text part; it starts "Share of Local Voice". */
export function visibilityLine(data: ReportData): string | null {
  const view = visibilityView(data);
  if (!view) return null;
  if (!view.overall) return `Share of Local Voice: ${NOT_MEASURED}${view.reason ? ` (${view.reason})` : ''}`;
  const m = view.overall;
  const kw = view.keywords.map((k) => `"${k.keyword}"`).join(', ');
  return `Share of Local Voice ${fmtSolv(m.solv)} (top ${TOP_RANKS} at ${view.keywords.reduce((s, k) => s + k.cells.filter((c) => c.band === 'top3').length, 0)} of ${m.points} grid points for ${kw}) · ARP ${m.arp === null ? '–' : m.arp.toFixed(2)} · ATRP ${m.atrp.toFixed(2)}${view.sampleData ? ' · sample data' : ''}`;
}

/** Every business compared with its grid metrics, by SoLV (then ATRP): who holds the local pack. */
export function voiceTable(data: ReportData): Array<{ place: AnalysedPlace; solv: string; arp: string; atrp: string }> {
  const num = (p: AnalysedPlace, key: string) => {
    const d = p.dataPoints.find((x) => x.key === key);
    return d?.status === 'measured' && typeof d.value === 'number' ? d.value : null;
  };
  return [data.business, ...data.competitors]
    .map((place) => ({ place, s: num(place, 'visibility.solv'), a: num(place, 'visibility.arp'), t: num(place, 'visibility.atrp') }))
    .sort((x, y) => (y.s ?? -1) - (x.s ?? -1) || (x.t ?? 99) - (y.t ?? 99))
    .map(({ place, s, a, t }) => ({ place, solv: s === null ? 'N/A' : fmtSolv(s), arp: a === null ? '–' : a.toFixed(2), atrp: t === null ? 'N/A' : t.toFixed(2) }));
}

/** What the history keeps of a report's grid (business_metrics.visibility, the dashboard card, the
 *  API): the geometry, the cost, and the business's own grid and metrics per keyword. */
export interface VisibilitySummary {
  status: VisibilityScan['status'];
  reason: string | null;
  provider: ProviderName;
  sampleData: boolean;
  size: number;
  radiusMiles: number;
  spacingMiles: number;
  calls: number;
  cached: number;
  /** Over every keyword; null when not measured. */
  solv: number | null;
  arp: number | null;
  atrp: number | null;
  keywords: Array<{ keyword: string; ranks: Array<number | null>; solv: number; arp: number | null; atrp: number }>;
}

export function visibilitySummary(data: ReportData): VisibilitySummary | null {
  const v = data.visibility;
  const view = visibilityView(data);
  if (!v || !view) return null;
  return {
    status: view.measured ? 'measured' : 'not_measured',
    reason: v.reason,
    provider: v.provider,
    sampleData: v.sampleData,
    size: v.size,
    radiusMiles: v.radiusMiles,
    spacingMiles: v.spacingMiles,
    calls: v.calls,
    cached: v.cached,
    solv: view.overall?.solv ?? null,
    arp: view.overall?.arp ?? null,
    atrp: view.overall?.atrp ?? null,
    keywords: view.keywords.map((k) => ({ keyword: k.keyword, ranks: k.cells.map((c) => c.rank), solv: k.metrics.solv, arp: k.metrics.arp, atrp: k.metrics.atrp })),
  };
}

/** A place's SoLV (percent), null when not measured. */
export function solvOf(place: AnalysedPlace): number | null {
  const p = place.dataPoints.find((d) => d.key === 'visibility.solv');
  return p?.status === 'measured' && typeof p.value === 'number' ? p.value : null;
}

/** A place's SoLV for the competitor tables: "33.33%", or "N/A" when not measured. */
export function solvCell(place: AnalysedPlace): string {
  const v = solvOf(place);
  return v === null ? 'N/A' : fmtSolv(v);
}
