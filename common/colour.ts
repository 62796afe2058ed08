// Colour maths for text that must stay readable on an agency's colours (WCAG 2 contrast). No
// dependencies: the widget SDK's bundle uses it as well as the screens and the reports.

/** WCAG relative luminance of #RRGGBB. */
export function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

/** The readable text colour on a background: white or near-black, whichever contrasts more. */
export function textOn(background: string): '#FFFFFF' | '#111827' {
  return contrastRatio(background, '#FFFFFF') >= contrastRatio(background, '#111827') ? '#FFFFFF' : '#111827';
}

/** WCAG AA for normal text. Below it the screens warn, and text on the colour is picked by `textOn`. */
export const MIN_CONTRAST = 4.5;

/** The colour darkened, step by step, until text in it reads on white (MIN_CONTRAST): an agency's
 *  light brand colour still works for links and headings. */
export function inkOn(colour: string, background = '#FFFFFF'): string {
  let [r, g, b] = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16)) as [number, number, number];
  const hex = () => `#${[r, g, b].map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`.toUpperCase();
  for (let i = 0; i < 40 && contrastRatio(hex(), background) < MIN_CONTRAST; i++) [r, g, b] = [r * 0.9, g * 0.9, b * 0.9];
  return hex();
}

/** WCAG 2 non-text contrast: a focus indicator against what it sits on. */
export const MIN_NON_TEXT_CONTRAST = 3;

/**
 * A focus ring colour that reads (MIN_NON_TEXT_CONTRAST) on every one of `backgrounds` (white,
 * the brand colour…): the colour itself if it does, else the nearest mix of it towards black or
 * white that does, in 5% steps; when no mix reads on all of them (a brand colour of middling
 * darkness leaves no room between it and white), the mix whose worst contrast is best.
 */
export function ringOn(colour: string, backgrounds: readonly string[]): string {
  const rgb = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
  const mix = (towards: number, t: number) => `#${rgb.map((c) => Math.round(c + (towards - c) * t).toString(16).padStart(2, '0')).join('')}`.toUpperCase();
  const worst = (hex: string) => Math.min(...backgrounds.map((b) => contrastRatio(hex, b)));
  let best = mix(0, 0);
  for (let step = 0; step <= 20; step++) {
    for (const candidate of [mix(0, step / 20), mix(255, step / 20)]) {
      if (worst(candidate) >= MIN_NON_TEXT_CONTRAST) return candidate;
      if (worst(candidate) > worst(best)) best = candidate;
    }
  }
  return best;
}
