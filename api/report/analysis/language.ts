// The language of a review, and its sentiment where we can measure it: English with AFINN-165
// (the `sentiment` package's list); Spanish, French, Portuguese, German, Italian, Dutch, Swedish,
// Danish and Norwegian with lexicons of our own on the same -5..+5 scale; all read by one scorer that follows negation
// and idioms (lexicons.ts). A text whose language is not told with confidence, or is one we have
// no lexicon for, is "not measured", never English and never neutral. Decisions 0152, 0207, 0222.
import { ENGLISH_WORDS, LEXICONS, scoreWith, type LexiconLanguage } from './lexicons.ts';
import { fold } from './matching.ts';

/** Common words of each language, folded; a word two languages share counts for both. */
const STOPWORDS: Record<string, string[]> = {
  en: ['the', 'and', 'is', 'was', 'were', 'with', 'for', 'you', 'they', 'very', 'not', 'but', 'this', 'that', 'have', 'had', 'our', 'my', 'it', 'to', 'of', 'we', 'great', 'would', 'i', 'your', 'their', 'them', 'there', 'here', 'what', 'when', 'who', 'just', 'also', 'all', 'never', 'too', 'again', 'always', 'got', 'get', 'went', 'came', 'made', 'been', 'will', 'could', 'did', 'does', 'has', 'are', 'be', 'at', 'by', 'from', 'about', 'or', 'out', 'up', 'back', 'place', 'time', 'really', 'food', 'in', 'town', 'down', 'go', 'else', 'anywhere', 'everything', 'thing', 'people', 'which', 'because', 'after', 'before', 'only', 'some', 'any', 'more', 'than', 'then', 'how', 'she', 'his', 'dont', 'didnt', 'wont', 'wouldnt', 'cant', 'couldnt', 'isnt', 'wasnt', 'im', 'ive', 'its', 'definitely', 'highly', 'ever', 'every', 'well', 'much', 'many'],
  es: ['el', 'la', 'los', 'las', 'y', 'es', 'muy', 'con', 'por', 'para', 'que', 'de', 'en', 'un', 'una', 'fue', 'son', 'no', 'pero', 'lo', 'nos', 'me', 'del', 'al', 'se', 'su', 'todo', 'nunca', 'mas', 'mi', 'estaba', 'estaban', 'comida', 'hay', 'este', 'servicio', 'lugar'],
  fr: ['le', 'les', 'et', 'est', 'tres', 'avec', 'pour', 'que', 'de', 'un', 'une', 'pas', 'mais', 'nous', 'je', 'du', 'au', 'ce', 'etait', 'sont', 'vraiment', 'cest', 'tout', 'rien', 'qui', 'vous', 'ai', 'sur', 'ont', 'fait', 'cette', 'mon', 'ma', 'mes', 'nos', 'aussi', 'toujours', 'chez'],
  pt: ['o', 'os', 'as', 'e', 'muito', 'com', 'por', 'para', 'que', 'de', 'em', 'um', 'uma', 'nao', 'mas', 'foi', 'voce', 'ele', 'mais', 'nunca', 'tudo', 'sempre', 'eu', 'meu', 'minha', 'atendimento'],
  de: ['der', 'die', 'das', 'und', 'ist', 'sehr', 'mit', 'fur', 'nicht', 'aber', 'ich', 'wir', 'ein', 'eine', 'zu', 'war', 'auch', 'es', 'empfehle', 'kein', 'keine', 'alles', 'nur', 'kann', 'sind', 'hat', 'haben', 'wird', 'noch', 'schon', 'immer', 'wieder', 'essen', 'leider'],
  it: ['il', 'gli', 'e', 'molto', 'con', 'per', 'che', 'di', 'un', 'una', 'non', 'ma', 'sono', 'era', 'della', 'anche', 'mai', 'piu', 'stato', 'stata', 'tutto', 'sempre', 'niente'],
  nl: ['het', 'een', 'en', 'ik', 'niet', 'zijn', 'met', 'voor', 'maar', 'heel', 'erg', 'ook', 'werd', 'wij', 'dit', 'naar', 'van', 'eten', 'personeel', 'bediening'],
  sv: ['och', 'att', 'det', 'som', 'pa', 'ar', 'jag', 'inte', 'med', 'har', 'till', 'av', 'vi', 'men', 'mycket', 'ocksa', 'var', 'maten', 'personalen', 'servicen', 'stallet'],
  da: ['og', 'det', 'er', 'ikke', 'jeg', 'meget', 'til', 'med', 'vi', 'af', 'som', 'har', 'men', 'godt', 'hvad', 'nogen', 'efter', 'ogsa', 'maden', 'personalet'],
  no: ['og', 'det', 'er', 'ikke', 'jeg', 'veldig', 'til', 'med', 'vi', 'av', 'som', 'har', 'men', 'godt', 'hva', 'noen', 'etter', 'ogsa', 'maten', 'personalet'],
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

/** What tells a Latin-script language apart: its common words (strong evidence), and its review
 *  words that are not also English ones ("excelente", "otimo"; not "terrible" or "super"). English:
 *  its common words, and AFINN's words (review words: weak, since "super", "top" or "problem" are
 *  written in many languages). A short review ("Muy buena atención, excelente servicio") has few
 *  common words. */
const EVIDENCE: Array<[string, (word: string) => 0 | 1 | 2]> = Object.entries(STOPWORDS).map(([lang, list]) => {
  const common = new Set(list);
  const review = new Set(lang === 'en' ? Object.keys(ENGLISH_WORDS) : Object.hasOwn(LEXICONS, lang) ? Object.keys(LEXICONS[lang as LexiconLanguage].words).filter((w) => !Object.hasOwn(ENGLISH_WORDS, w)) : []);
  return [lang, (w) => (common.has(w) ? 2 : review.has(w) ? 1 : 0)];
});

/** The language of a text (ISO 639-1), from its script or letters of its own, else from the words
 *  it holds of each language (see EVIDENCE; a common word weighs twice a review word), when they
 *  tell with confidence: one language ahead of every other, with two of its words or more, or one
 *  in five words of a short text ("Front desk staff handled it."). Null when they do not: no
 *  letters, no word of any language listed (Tagalog, Haitian Creole), two languages as likely
 *  ("Prima": Dutch or Swedish), or one word in a longer text. Never English by default. */
export function detectLanguage(text: string): string | null {
  const composed = text.normalize('NFC');
  for (const [re, lang] of SCRIPTS) if (re.test(composed)) return lang;
  // French and Italian elision ("n'était", "l'attesa", "c'est") separates words; "don't" stays one.
  const words = fold(text.replace(/(?<![\p{L}\p{M}])([cdjlmnst]|qu)['’]/giu, '$1 ')).split(' ').filter(Boolean);
  if (words.length === 0) return null;
  const ranked = EVIDENCE.map(([lang, weigh]) => {
    const weights = words.map(weigh);
    return { lang, words: weights.filter(Boolean).length, weight: weights.reduce<number>((a, b) => a + b, 0) };
  }).sort((a, b) => b.weight - a.weight);
  const [best, next] = [ranked[0]!, ranked[1]];
  if (best.weight === 0 || (next && next.weight === best.weight)) return null;
  return best.words >= 2 || best.words / words.length >= 0.2 ? best.lang : null;
}

const names = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

/** A language's name in English ("sv" → "Swedish"); "not recognised" for a text whose language
 *  could not be told; the code itself only for one Intl does not know. */
export function languageName(code: string): string {
  if (code === 'unknown') return 'not recognised';
  try {
    return names.of(code) ?? code;
  } catch {
    return code;
  }
}

/** The languages whose sentiment is measured, by name: "English, Spanish, ...". */
export const MEASURED_LANGUAGES = Object.keys(LEXICONS).map(languageName);

/** Sentiment of a text in a language we measure: the total of its scored words and idioms and
 *  the total per word (AFINN's measure); null for a language we do not measure. */
export function sentimentIn(text: string, language: string): { score: number; comparative: number } | null {
  return Object.hasOwn(LEXICONS, language) ? scoreWith(LEXICONS[language as LexiconLanguage], text) : null;
}
