// Share images (Open Graph, 1200×630), drawn at build time with satori (layout → SVG) and resvg
// (SVG → PNG) in Inter, the fonts the report renderer already unpacks.
import { Resvg } from '@resvg/resvg-js';
import satori from 'satori';
import { interFont } from '../../api/report/render/fonts.ts';
import { COMPETITOR_COUNT, PRODUCT_NAME, SEARCH_RADIUS_MILES } from '../../common/constants.ts';

export const OG_SIZE = { width: 1200, height: 630 } as const;

type Node = { type: string; props: { style?: Record<string, unknown>; children?: Node | string | Array<Node | string> } & Record<string, unknown> };
const h = (type: string, style: Record<string, unknown>, children?: Node['props']['children']): Node => ({ type, props: { style, children } });

function logo(): Node {
  return h('div', { display: 'flex', alignItems: 'center', gap: 18 }, [
    h('div', { display: 'flex', alignItems: 'flex-end', justifyContent: 'center', gap: 6, width: 64, height: 64, borderRadius: 16, background: '#3B82F6', padding: 14 }, [
      h('div', { width: 9, height: 18, background: '#fff', borderRadius: 2 }),
      h('div', { width: 9, height: 28, background: '#fff', borderRadius: 2 }),
      h('div', { width: 9, height: 36, background: '#fff', borderRadius: 2 }),
    ]),
    h('div', { fontSize: 40, fontWeight: 700, color: '#1F2937' }, PRODUCT_NAME),
  ]);
}

function scoreBars(): Node {
  const rows: Array<[string, number, string]> = [
    ['Online Reviews', 8.7, '#059669'],
    ['Digital Presence', 7.8, '#3B82F6'],
    ['Engagement', 7.2, '#d97706'],
    ['Market Share', 6.4, '#dc2626'],
  ];
  return h(
    'div',
    { display: 'flex', flexDirection: 'column', gap: 20, width: 360, padding: 32, borderRadius: 24, background: '#fff', border: '2px solid #e2e8f0', boxShadow: '0 12px 40px rgba(15,23,42,0.12)' },
    rows.map(([label, score, colour]) =>
      h('div', { display: 'flex', flexDirection: 'column', gap: 8 }, [
        h('div', { display: 'flex', justifyContent: 'space-between', fontSize: 22, color: '#334155' }, [h('span', {}, label), h('span', { fontWeight: 700, color: '#1F2937' }, score.toFixed(1))]),
        h('div', { display: 'flex', height: 12, borderRadius: 6, background: '#e2e8f0' }, [h('div', { width: `${score * 10}%`, height: 12, borderRadius: 6, background: colour })]),
      ]),
    ),
  );
}

export async function renderOgImage(input: { title: string; subtitle: string }): Promise<Buffer> {
  const tree = h(
    'div',
    { display: 'flex', width: OG_SIZE.width, height: OG_SIZE.height, padding: 64, gap: 40, background: 'linear-gradient(135deg, #eff6ff 0%, #ffffff 55%, #ecfdf5 100%)', fontFamily: 'Inter' },
    [
      h('div', { display: 'flex', flexDirection: 'column', justifyContent: 'space-between', width: 672, height: OG_SIZE.height - 128 }, [
        logo(),
        h('div', { display: 'flex', flexDirection: 'column', gap: 20 }, [
          h('div', { fontSize: 56, fontWeight: 700, lineHeight: 1.1, color: '#1F2937', letterSpacing: -1 }, input.title),
          h('div', { fontSize: 28, lineHeight: 1.35, color: '#475569' }, input.subtitle),
        ]),
        h('div', { display: 'flex', fontSize: 22, color: '#059669', fontWeight: 600 }, `Top ${COMPETITOR_COUNT} competitors · ${SEARCH_RADIUS_MILES}-mile radius · Scores 1-10`),
      ]),
      h('div', { display: 'flex', alignItems: 'center', width: 360 }, [scoreBars()]),
    ],
  );
  const svg = await satori(tree as unknown as Parameters<typeof satori>[0], {
    ...OG_SIZE,
    fonts: [
      { name: 'Inter', data: interFont(400), weight: 400, style: 'normal' },
      { name: 'Inter', data: interFont(600), weight: 600, style: 'normal' },
      { name: 'Inter', data: interFont(700), weight: 700, style: 'normal' },
    ],
  });
  return new Resvg(svg, { fitTo: { mode: 'width', value: OG_SIZE.width } }).render().asPng();
}
