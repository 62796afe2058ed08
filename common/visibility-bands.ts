// The local visibility grid's plans (the VISIBILITY_GRID setting) and rank bands, shared by the
// settings, every renderer (PDF, online report, e-mail) and the dashboard's island; it imports only
// types, so the browser bundle stays small.
import type { Tier } from './constants.ts';

/** Searches return at most this many places; a place past it is "not in the top 20". */
export const GRID_DEPTH = 20;
/** Top 3 = the local pack: Share of Local Voice counts the points where a place is in it. */
export const TOP_RANKS = 3;

/** Keywords an owner may choose for the grid (the plan's grid takes the first ones). */
export const MAX_VISIBILITY_KEYWORDS = 5;

export interface GridPlan {
  size: number;
  keywords: number;
}

export const DEFAULT_GRID_PLANS = 'free:3x1,pro:5x3,enterprise:7x5,agency:7x5';

/** "free:3x1,pro:5x3,…" → per tier: grid size (odd, 3-9) × keywords (1-MAX_VISIBILITY_KEYWORDS). null when malformed. */
export function parseGridPlans(text: string): Record<Tier, GridPlan> | null {
  const out: Partial<Record<Tier, GridPlan>> = {};
  for (const part of text.split(',')) {
    const m = /^\s*(free|pro|enterprise|agency)\s*:\s*(\d+)\s*x\s*(\d+)\s*$/i.exec(part);
    if (!m) return null;
    const size = Number(m[2]);
    const keywords = Number(m[3]);
    if (size < 3 || size > 9 || size % 2 === 0 || keywords < 1 || keywords > MAX_VISIBILITY_KEYWORDS) return null;
    out[m[1]!.toLowerCase() as Tier] = { size, keywords };
  }
  return out.free && out.pro && out.enterprise && out.agency ? (out as Record<Tier, GridPlan>) : null;
}

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
