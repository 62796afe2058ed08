// The local visibility grid's rank bands, shared by every renderer (PDF, online report, e-mail)
// and the dashboard's island, dependency-free so the browser bundle stays small.

/** Searches return at most this many places; a place past it is "not in the top 20". */
export const GRID_DEPTH = 20;
/** Top 3 = the local pack: Share of Local Voice counts the points where a place is in it. */
export const TOP_RANKS = 3;

export type RankBand = 'top3' | 'top10' | 'top20' | 'none';

/** Fills dark enough for white text (and a light one for "not in the top 20"). */
export const RANK_BANDS: Record<RankBand, { fill: string; ink: string; label: string }> = {
  top3: { fill: '#047857', ink: '#ffffff', label: `Top ${TOP_RANKS} (the local pack)` },
  top10: { fill: '#b45309', ink: '#ffffff', label: `${TOP_RANKS + 1}-10` },
  top20: { fill: '#b91c1c', ink: '#ffffff', label: `11-${GRID_DEPTH}` },
  none: { fill: '#e2e8f0', ink: '#334155', label: `Not in the top ${GRID_DEPTH}` },
};
export const RANK_BAND_ORDER: RankBand[] = ['top3', 'top10', 'top20', 'none'];

export const rankBand = (rank: number | null): RankBand => (rank === null ? 'none' : rank <= TOP_RANKS ? 'top3' : rank <= 10 ? 'top10' : 'top20');
/** A cell's text: the rank, or "20+" when the place is not in the top 20 there. */
export const cellText = (rank: number | null) => (rank === null ? `${GRID_DEPTH}+` : String(rank));
