// The score card: a 1200×630 PNG (satori lays out, resvg rasterises) shown inline in the e-mail.
// Names of any length and script (Inter covers Latin Extended, Vietnamese, Greek, Cyrillic) take
// at most two lines and end in an ellipsis; with sample data the card says so in an owner's words.
// With an agency's branding its logo, name and colours replace ours.
import { Resvg } from '@resvg/resvg-js';
import satori from 'satori';
import { pngSize, themeOf, type Branding } from '../model/branding.ts';
import type { ReportData } from '../model/types.ts';
import { fallbackData, fallbacksFor, fallbackWeight, interFont } from './fonts.ts';
import { websiteCardLine } from '../words/website-state.ts';
import { bandColour, bandLabel, fmtDate, fmtScore, hasMarket, NO_MARKET, NOT_RANKED, rankNo, rankOf, SAMPLE_DATA_LABEL, SCORE_KEYS, SCORE_LABELS } from '../words/labels.ts';

export const SCORE_CARD_SIZE = { width: 1200, height: 630 } as const;

type Style = Record<string, string | number>;
interface Node {
  type: string;
  props: { style?: Style; children?: Array<Node | string> | Node | string; src?: string; width?: number; height?: number };
}
const h = (type: string, style: Style, ...children: Array<Node | string>): Node => ({
  type,
  props: { style: { display: 'flex', boxSizing: 'border-box', ...style }, children: children.length === 1 ? children[0] : children },
});

function scoreRow(label: string, score: number | null, empty = fmtScore(score)): Node {
  const width = score === null ? 0 : Math.max(2, Math.min(100, score * 10));
  return h(
    'div',
    { flexDirection: 'column', marginBottom: 22 },
    h(
      'div',
      { justifyContent: 'space-between', fontSize: 24, color: '#334155', marginBottom: 8 },
      h('span', {}, label),
      h('span', { fontWeight: 700, color: score === null ? '#64748b' : '#0f172a', fontSize: score === null ? 20 : 24 }, score === null ? empty : fmtScore(score)),
    ),
    h('div', { height: 14, backgroundColor: '#e2e8f0', borderRadius: 7, width: '100%' }, h('div', { height: 14, width: `${width}%`, backgroundColor: bandColour(score), borderRadius: 7 })),
  );
}

/** Two lines at most, cut with an ellipsis (satori's lineClamp). */
const clamp2: Style = { display: 'block', lineClamp: 2, overflow: 'hidden', textOverflow: 'ellipsis', textAlign: 'center', width: '100%' };

/** The agency's logo (at most 220×48) or the colour mark, then the name. */
function mark(branding: Branding | null, theme: ReturnType<typeof themeOf>): Node {
  if (!branding?.logoPng) return h('div', { width: 36, height: 36, borderRadius: 8, backgroundColor: theme.brand, marginRight: 12 });
  const size = pngSize(branding.logoPng);
  const scale = Math.min(220 / size.width, 48 / size.height);
  const [width, height] = [Math.round(size.width * scale), Math.round(size.height * scale)];
  return { type: 'img', props: { src: `data:image/png;base64,${branding.logoPng.toString('base64')}`, width, height, style: { marginRight: 16 } } };
}

export function scoreCardTree(data: ReportData, branding: Branding | null = null): Node {
  const b = data.business;
  const overall = b.scores.overall as number | null;
  const theme = themeOf(branding);
  return h(
    'div',
    {
      width: SCORE_CARD_SIZE.width,
      height: SCORE_CARD_SIZE.height,
      flexDirection: 'column',
      backgroundColor: '#f8fafc',
      fontFamily: 'Inter',
      padding: 48,
      ...(branding ? { borderTop: `12px solid ${theme.brand}`, paddingTop: 36 } : {}),
    },
    h(
      'div',
      { justifyContent: 'space-between', alignItems: 'center', marginBottom: 28 },
      h('div', { alignItems: 'center', fontSize: 28, fontWeight: 700, color: theme.secondaryInk, maxWidth: 640 }, mark(branding, theme), h('span', { display: 'block', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }, theme.name)),
      data.sampleData
        ? h('div', { fontSize: 20, fontWeight: 600, color: '#92400e', backgroundColor: '#fffbeb', border: '2px solid #fcd34d', borderRadius: 999, padding: '6px 16px' }, SAMPLE_DATA_LABEL)
        : h('div', { fontSize: 20, color: '#475569' }, fmtDate(data.generatedAt)),
    ),
    h(
      'div',
      { flex: 1, backgroundColor: '#ffffff', borderRadius: 20, border: '1px solid #e2e8f0', padding: 40 },
      h(
        'div',
        { flexDirection: 'column', width: 400, alignItems: 'center', justifyContent: 'center', borderRight: '1px solid #e2e8f0', paddingRight: 36 },
        h('div', { fontSize: 30, fontWeight: 700, color: '#0f172a', marginBottom: 6, lineHeight: 1.2, ...clamp2 }, b.place.name),
        h('div', { fontSize: 20, color: '#475569', marginBottom: 18, ...clamp2 }, hasMarket(data) ? `${data.category} · ${data.radiusMiles}-mile market` : `${data.category} · ${data.competitors.length === 0 ? 'no competitor' : `${data.competitors.length} competitor${data.competitors.length === 1 ? '' : 's'}`} within ${data.radiusMiles} miles`),
        h(
          'div',
          { width: 190, height: 190, borderRadius: '50%', border: `14px solid ${bandColour(overall)}`, alignItems: 'center', justifyContent: 'center', flexDirection: 'column' },
          overall === null
            ? h('div', { fontSize: 21, fontWeight: 700, color: '#475569', textAlign: 'center', width: 128, justifyContent: 'center', lineHeight: 1.15 }, 'Not enough data')
            : h('div', { fontSize: 60, fontWeight: 700, color: '#0f172a' }, fmtScore(overall)),
          h('div', { fontSize: 18, color: '#475569' }, overall === null ? 'overall' : 'overall / 10'),
          // No band to name without a score: the ring says "Not enough data" once.
          ...(overall === null ? [] : [h('div', { fontSize: 16, fontWeight: 600, color: bandColour(overall), marginTop: 2 }, bandLabel(overall))]),
        ),
        h('div', { marginTop: 22, fontSize: 28, fontWeight: 700, color: theme.secondaryInk }, rankNo(b, data) ? `Rank ${rankOf(b, data)}` : hasMarket(data) ? NOT_RANKED : `${NO_MARKET} to rank in`),
        // How the website was met, when it is not a working site (decisions 0217, 0230).
        ...(websiteCardLine(b) ? [h('div', { marginTop: 8, fontSize: 18, color: '#92400e', ...clamp2 }, websiteCardLine(b)!)] : []),
      ),
      h('div', { flex: 1, flexDirection: 'column', justifyContent: 'center', paddingLeft: 40 }, ...SCORE_KEYS.map((k) => scoreRow(SCORE_LABELS[k], b.scores[k] as number | null, k === 'marketShare' && !hasMarket(data) ? NO_MARKET : undefined))),
    ),
  );
}

type SatoriFont = { name: string; data: Buffer; weight: 400 | 600 | 700; style: 'normal' };
/** Inter, then the fallbacks a card's text needs (satori takes a glyph from the first font that has
 *  it). One array per set of fonts: satori keeps a font's parse for as long as its array lives. */
const fontSets = new Map<string, SatoriFont[]>();
function cardFonts(texts: string[]): SatoriFont[] {
  const fallbacks = [...new Set(texts.flatMap(fallbacksFor))];
  const key = fallbacks.join('|');
  let fonts = fontSets.get(key);
  if (!fonts) {
    fonts = [
      ...([400, 600, 700] as const).map((weight): SatoriFont => ({ name: 'Inter', data: interFont(weight), weight, style: 'normal' })),
      ...fallbacks.flatMap((name): SatoriFont[] => [
        { name, data: fallbackData(name), weight: 400, style: 'normal' },
        ...(fallbackWeight(name, 700) === 700 ? [{ name, data: fallbackData(name, 700), weight: 700 as const, style: 'normal' as const }] : []),
      ]),
    ];
    fontSets.set(key, fonts);
  }
  return fonts;
}

const RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/;
const LTR = /[^\P{L}\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/u;

/**
 * The words of a text in the order they are seen. satori draws each word's letters right to left
 * but lays words out left to right, so "מסעדת השף" showed its second word first. A run of
 * right-to-left words (with the spaces between them) is reversed; a text whose first word with
 * letters is right-to-left has its runs reversed as well ("مطعم Pizza" shows "Pizza مطعم").
 */
export function visualWordOrder(text: string): string {
  if (!RTL.test(text)) return text;
  const tokens = text.split(/(\s+)/).filter((t) => t !== '');
  const rtl = (t: string) => RTL.test(t) && !LTR.test(t);
  const runs: Array<{ rtl: boolean | 'space'; tokens: string[] }> = [];
  const isSpace = (t: string) => /^\s+$/.test(t);
  tokens.forEach((token, i) => {
    const next = tokens.slice(i + 1).find((t) => !isSpace(t));
    // A space between two right-to-left words belongs to their run; any other stays where it is.
    const kind = isSpace(token) ? (runs.at(-1)?.rtl === true && next !== undefined && rtl(next) ? true : 'space') : rtl(token);
    if (runs.at(-1)?.rtl === kind && kind !== 'space') runs.at(-1)!.tokens.push(token);
    else runs.push({ rtl: kind, tokens: [token] });
  });
  for (const run of runs) if (run.rtl === true) run.tokens.reverse();
  const first = tokens.find((t) => RTL.test(t) || LTR.test(t));
  if (first !== undefined && rtl(first)) runs.reverse();
  return runs.flatMap((r) => r.tokens).join('');
}

/** The tree with every text in the order satori is to lay it out. */
function visual(node: Node | string): Node | string {
  if (typeof node === 'string') return visualWordOrder(node);
  const children = node.props.children;
  if (children === undefined) return node;
  return { ...node, props: { ...node.props, children: Array.isArray(children) ? children.map(visual) : visual(children) } };
}

/** The texts a tree draws, in order (its styles and a logo's bytes are none of them). */
function textsOf(node: Node | string): string[] {
  if (typeof node === 'string') return [node];
  const children = node.props.children;
  if (children === undefined) return [];
  return Array.isArray(children) ? children.flatMap(textsOf) : textsOf(children);
}

export async function renderScoreCard(data: ReportData, branding: Branding | null = null): Promise<Buffer> {
  const tree = visual(scoreCardTree(data, branding)) as Node;
  const svg = await satori(tree as unknown as Parameters<typeof satori>[0], { ...SCORE_CARD_SIZE, fonts: cardFonts(textsOf(tree)) });
  return new Resvg(svg, { fitTo: { mode: 'width', value: SCORE_CARD_SIZE.width }, font: { loadSystemFonts: false } }).render().asPng();
}
