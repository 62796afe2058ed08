// The language of a review, and its sentiment where we can measure it: English with AFINN-165
// (the `sentiment` package); Spanish, French, Portuguese, German and Italian with lexicons of our
// own on the same -5..+5 scale (lexicons.ts). Any other language is "not measured", never
// neutral. Decisions 0152 and 0207.
import { createRequire } from 'node:module';
import Sentiment from 'sentiment';
import { LEXICONS, scoreWith, type LexiconLanguage } from './lexicons.ts';
import { fold } from './matching.ts';

const STOPWORDS: Record<string, string[]> = {
  en: ['the', 'and', 'is', 'was', 'were', 'with', 'for', 'you', 'they', 'very', 'not', 'but', 'this', 'that', 'have', 'had', 'our', 'my', 'it', 'to', 'of', 'in', 'we', 'great', 'would'],
  es: ['el', 'la', 'los', 'las', 'y', 'es', 'muy', 'con', 'por', 'para', 'que', 'de', 'en', 'un', 'una', 'fue', 'son', 'no', 'pero', 'lo', 'nos', 'me', 'del', 'al', 'se', 'su', 'todo', 'nunca', 'mas'],
  fr: ['le', 'les', 'et', 'est', 'tres', 'avec', 'pour', 'que', 'de', 'un', 'une', 'pas', 'mais', 'nous', 'je', 'du', 'au', 'ce', 'etait', 'sont'],
  pt: ['o', 'os', 'as', 'e', 'muito', 'com', 'por', 'para', 'que', 'de', 'em', 'um', 'uma', 'nao', 'mas', 'foi', 'voce', 'ele'],
  de: ['der', 'die', 'das', 'und', 'ist', 'sehr', 'mit', 'fur', 'nicht', 'aber', 'ich', 'wir', 'ein', 'eine', 'zu', 'war', 'auch'],
  it: ['il', 'gli', 'e', 'molto', 'con', 'per', 'che', 'di', 'un', 'una', 'non', 'ma', 'sono', 'era', 'della', 'anche'],
  // Listed so that Dutch is told apart (and not measured), not taken for a language we measure.
  nl: ['het', 'een', 'en', 'ik', 'niet', 'zijn', 'met', 'voor', 'maar', 'heel', 'erg', 'ook', 'werd', 'wij', 'dit', 'naar', 'van'],
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
  // Latin-script languages told by letters of their own (checked composed: NFC).
  [/[\u01a0\u01a1\u01af\u01b0\u1ea0-\u1ef9]/u, 'vi'],
  [/[ąęłńśźżĄĘŁŃŚŹŻ]/u, 'pl'],
  [/[ěřůĚŘŮ]/u, 'cs'],
  [/[ğıİĞ]/u, 'tr'],
];

/** AFINN-165's English words (the `sentiment` package's list). */
const AFINN = createRequire(import.meta.url)('sentiment/languages/en/labels.json') as Record<string, number>;

/** What tells a Latin-script language apart: its common words, and its review words that are not
 *  also English ones ("excelente", "otimo"; not "terrible" or "super"). English: its common words
 *  and AFINN's. A short review ("Muy buena atención, excelente servicio") has few common words. */
const EVIDENCE: Array<[string, (word: string) => boolean]> = Object.entries(STOPWORDS).map(([lang, list]) => {
  const own = new Set([...list, ...(Object.hasOwn(LEXICONS, lang) ? Object.keys(LEXICONS[lang as LexiconLanguage].words).filter((w) => !Object.hasOwn(AFINN, w)) : [])]);
  return [lang, lang === 'en' ? (w) => own.has(w) || Object.hasOwn(AFINN, w) : (w) => own.has(w)];
});

/** The language of a text (ISO 639-1), from its script or letters of its own, else from the
 *  language whose words (see EVIDENCE) it holds most of; a short Latin-script text with none of
 *  them reads as English; null when it has no letters or is a longer text in no language listed.
 *  A Latin-script language without a list here that shares two words or more with a listed one
 *  comes out as that one. */
export function detectLanguage(text: string): string | null {
  const composed = text.normalize('NFC');
  for (const [re, lang] of SCRIPTS) if (re.test(composed)) return lang;
  const words = fold(text).split(' ').filter(Boolean);
  if (words.length === 0) return null;
  let best: { lang: string; hits: number } | null = null;
  for (const [lang, isOwn] of EVIDENCE) {
    const hits = words.filter(isOwn).length;
    if (hits > 0 && (!best || hits > best.hits)) best = { lang, hits };
  }
  if (best && (best.hits >= 2 || words.length <= 4)) return best.lang;
  // Eight words or more with at most one word of any listed language are in none of them
  // (Tagalog, Haitian Creole, Vietnamese typed without its accents): not recognised, so not
  // measured. Fewer ("Front desk staff handled it."): the language of the US markets served.
  if (words.length >= 8) return null;
  return /\p{Script=Latin}/u.test(text) ? 'en' : null;
}

const english = new Sentiment();

/** Sentiment of a text in a language we measure: AFINN's total and its per-word mean; null for a
 *  language we do not measure. */
export function sentimentIn(text: string, language: string): { score: number; comparative: number } | null {
  if (language === 'en') {
    const r = english.analyze(text);
    return { score: r.score, comparative: r.comparative };
  }
  return Object.hasOwn(LEXICONS, language) ? scoreWith(LEXICONS[language as LexiconLanguage], fold(text)) : null;
}
