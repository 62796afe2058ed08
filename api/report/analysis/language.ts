// The language of a review, and its sentiment where we can measure it: English with AFINN-165
// (the `sentiment` package), Spanish with a lexicon of our own on the same -5..+5 scale (common
// review words, with "no", "nunca", "ni", "sin" before a word turning it around). Any other
// language is "not measured", never neutral. Decision 0152.
import Sentiment from 'sentiment';
import { fold } from './matching.ts';

/** Languages whose sentiment is measured. */
export const SENTIMENT_LANGUAGES = ['en', 'es'] as const;

const STOPWORDS: Record<string, string[]> = {
  en: ['the', 'and', 'is', 'was', 'were', 'with', 'for', 'you', 'they', 'very', 'not', 'but', 'this', 'that', 'have', 'had', 'our', 'my', 'it', 'to', 'of', 'in', 'we', 'great', 'would'],
  es: ['el', 'la', 'los', 'las', 'y', 'es', 'muy', 'con', 'por', 'para', 'que', 'de', 'en', 'un', 'una', 'fue', 'son', 'no', 'pero', 'lo', 'nos', 'me', 'del', 'al', 'se', 'su', 'todo', 'nunca', 'mas'],
  fr: ['le', 'les', 'et', 'est', 'tres', 'avec', 'pour', 'que', 'de', 'un', 'une', 'pas', 'mais', 'nous', 'je', 'du', 'au', 'ce', 'etait', 'sont'],
  pt: ['o', 'os', 'as', 'e', 'muito', 'com', 'por', 'para', 'que', 'de', 'em', 'um', 'uma', 'nao', 'mas', 'foi', 'voce', 'ele'],
  de: ['der', 'die', 'das', 'und', 'ist', 'sehr', 'mit', 'fur', 'nicht', 'aber', 'ich', 'wir', 'ein', 'eine', 'zu', 'war', 'auch'],
  it: ['il', 'gli', 'e', 'molto', 'con', 'per', 'che', 'di', 'un', 'una', 'non', 'ma', 'sono', 'era', 'della', 'anche'],
};

const SCRIPTS: Array<[RegExp, string]> = [
  [/[\p{Script=Hiragana}\p{Script=Katakana}]/u, 'ja'],
  [/\p{Script=Hangul}/u, 'ko'],
  [/\p{Script=Han}/u, 'zh'],
  [/\p{Script=Cyrillic}/u, 'ru'],
  [/\p{Script=Arabic}/u, 'ar'],
  [/\p{Script=Hebrew}/u, 'he'],
  [/\p{Script=Greek}/u, 'el'],
  [/\p{Script=Thai}/u, 'th'],
  [/\p{Script=Devanagari}/u, 'hi'],
];

/** The language of a text (ISO 639-1), from its script, else from its most frequent common words;
 *  a short Latin-script text with none of them reads as English; null when it has no letters.
 *  Latin-script languages without a list here come out as whichever listed language they share
 *  most words with. */
export function detectLanguage(text: string): string | null {
  for (const [re, lang] of SCRIPTS) if (re.test(text)) return lang;
  const words = fold(text).split(' ').filter(Boolean);
  if (words.length === 0) return null;
  let best: { lang: string; hits: number } | null = null;
  for (const [lang, list] of Object.entries(STOPWORDS)) {
    const set = new Set(list);
    const hits = words.filter((w) => set.has(w)).length;
    if (hits > 0 && (!best || hits > best.hits)) best = { lang, hits };
  }
  if (best && (best.hits >= 2 || words.length <= 4)) return best.lang;
  // A few Latin-script words with no common word of any listed language ("Rude front desk."):
  // the language of the US markets the report serves.
  return /\p{Script=Latin}/u.test(text) ? 'en' : null;
}

/** Spanish review words, folded (no accents), scored like AFINN-165 (-5..+5). */
const SPANISH: Record<string, number> = {
  excelente: 4, excelentes: 4, buenisimo: 4, buenisima: 4, increible: 4, increibles: 4, maravilloso: 4, maravillosa: 4, fantastico: 4, fantastica: 4, espectacular: 4, estupendo: 3, estupenda: 3,
  genial: 3, perfecto: 3, perfecta: 3, delicioso: 3, deliciosa: 3, sabroso: 3, sabrosa: 3, encanta: 3, encanto: 3, encantado: 3, encantada: 3, feliz: 3, felices: 3, recomendadisimo: 4,
  bueno: 2, buena: 2, buenos: 2, buenas: 2, bien: 2, recomiendo: 2, recomendado: 2, recomendable: 2, amable: 2, amables: 2, atento: 2, atenta: 2, atentos: 2, atentas: 2, amabilidad: 2,
  limpio: 2, limpia: 2, limpios: 2, rico: 2, rica: 2, ricos: 2, contento: 2, contenta: 2, contentos: 2, satisfecho: 2, satisfecha: 2, mejor: 2, mejores: 2, gracias: 2, agradable: 2,
  profesional: 2, profesionales: 2, honesto: 2, honesta: 2, puntual: 2, puntuales: 2, eficiente: 2, eficientes: 2, confiable: 2, calidad: 1, rapido: 1, rapida: 1, rapidos: 1, rapidas: 1, justo: 1, justos: 1, justa: 1,
  mal: -2, malo: -3, mala: -3, malos: -3, malas: -3, terrible: -3, terribles: -3, horrible: -3, horribles: -3, pesimo: -3, pesima: -3, pesimos: -3, peor: -3, fatal: -3, desastre: -3,
  grosero: -3, grosera: -3, groseros: -3, groseras: -3, maleducado: -3, irrespetuoso: -3, incompetente: -3, incompetentes: -3, estafa: -3, estafadores: -4, robo: -3, ladrones: -4, asco: -3, asqueroso: -4, asquerosa: -4,
  mentira: -2, mentiras: -2, mentirosos: -3, decepcion: -2, decepcionado: -2, decepcionada: -2, decepcionante: -2, sucio: -2, sucia: -2, sucios: -2, lento: -2, lenta: -2, lentos: -2, tardaron: -1,
  problema: -2, problemas: -2, queja: -2, quejas: -2, caro: -1, carisimo: -2, frio: -1, fria: -1, frios: -1, nadie: -1, nunca: -1, espera: -1, esperar: -1, tarde: -1, cobraron: -1, olvidaron: -2, ignoraron: -2,
};
const NEGATORS = new Set(['no', 'nunca', 'jamas', 'ni', 'tampoco', 'sin']);

const analyser = new Sentiment();
analyser.registerLanguage('es', {
  labels: SPANISH,
  // A negator up to two words before ("no es bueno", "nunca fue malo") turns a word around.
  scoringStrategy: { apply: (tokens: string[], cursor: number, score: number) => (!NEGATORS.has(tokens[cursor]!) && [1, 2].some((back) => cursor >= back && NEGATORS.has(tokens[cursor - back]!)) ? -score : score) },
});

/** Sentiment of a text in a language we measure: AFINN's total and its per-word mean; null for a
 *  language we do not measure. */
export function sentimentIn(text: string, language: string): { score: number; comparative: number } | null {
  if (language === 'en') {
    const r = analyser.analyze(text);
    return { score: r.score, comparative: r.comparative };
  }
  if (language === 'es') {
    const r = analyser.analyze(fold(text), { language: 'es' });
    return { score: r.score, comparative: r.comparative };
  }
  return null;
}
