// Inter, from the @fontsource/inter package (WOFF: both satori and pdfkit's fontkit read it).
// Latin and Latin Extended subsets cover US business names, punctuation and symbols we print.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export type FontWeight = 400 | 600 | 700;
export const FONT_WEIGHTS: FontWeight[] = [400, 600, 700];

const cache = new Map<string, Buffer>();

export function interFont(weight: FontWeight, subset: 'latin' | 'latin-ext' = 'latin'): Buffer {
  const key = `${subset}-${weight}`;
  let data = cache.get(key);
  if (!data) {
    data = readFileSync(require.resolve(`@fontsource/inter/files/inter-${subset}-${weight}-normal.woff`));
    cache.set(key, data);
  }
  return data;
}
