// Stage 4: what a place's reviews say. Rating and count come from the listing; velocity, recency,
// star distribution, sentiment (in the review's language: English with AFINN-165, nine more with
// lexicons of our own, others and texts whose language is not told not measured; see language.ts), owner
// responses and recurring themes come from the reviews the provider gives.
import type { Review, UnmeasuredText } from '../model/types.ts';
import { detectLanguage, sentimentIn } from './language.ts';
import { countPhrase, fold } from './matching.ts';

const DAY = 86_400_000;

/** Themes: a name and the words that signal it in a review's language. English words are found
 *  as whole words with their common endings ("wait" in "waiting", "book" in "booked"; not "late" in
 *  "chocolate" nor "fast" in "breakfast"); the other languages' as whole words, so "cita" is not
 *  found in "excitable". A text is matched in its own language only ("sale" is dirty in French, not
 *  in English). All are matched folded: no accents, punctuation as spaces. */
const THEME_WORDS: Array<{ theme: string; en: string[]; whole: Partial<Record<string, string[]>> }> = [
  {
    theme: 'staff',
    en: ['staff', 'team', 'friendly', 'rude', 'front desk', 'receptionist', 'polite', 'stylist', 'technician', 'mechanic', 'server', 'coaches', 'hygienist'],
    whole: {
      es: ['personal', 'mesero', 'meseros', 'amable', 'amables', 'grosero', 'grosera', 'atencion'],
      fr: ['personnel', 'equipe', 'accueil', 'serveur', 'serveuse', 'serveurs', 'aimable', 'aimables', 'impoli', 'impolie'],
      pt: ['atendimento', 'funcionarios', 'funcionario', 'atendente', 'equipe', 'garcom', 'simpatico', 'simpatica', 'educado', 'grosso'],
      de: ['personal', 'bedienung', 'mitarbeiter', 'freundlich', 'freundliche', 'freundliches', 'unfreundlich', 'unfreundliche'],
      it: ['personale', 'staff', 'cameriere', 'camerieri', 'gentile', 'gentili', 'scortese', 'maleducato'],
      nl: ['personeel', 'bediening', 'ober', 'serveerster', 'vriendelijk', 'vriendelijke', 'onvriendelijk', 'onvriendelijke'],
      sv: ['personal', 'personalen', 'servitor', 'servitris', 'trevlig', 'trevliga', 'otrevlig', 'otrevliga'],
      da: ['personale', 'personalet', 'betjening', 'betjeningen', 'tjener', 'venlig', 'venlige', 'uvenlig', 'uvenlige'],
      no: ['personale', 'personalet', 'betjening', 'betjeningen', 'servitor', 'vennlig', 'vennlige', 'uvennlig', 'frekk'],
    },
  },
  {
    theme: 'wait time',
    en: ['wait', 'waited', 'late', 'on time', 'fast', 'quick', 'quickly', 'same day', 'slow', 'no-show', 'never showed', 'rushed'],
    whole: {
      es: ['espera', 'esperar', 'tarde', 'rapido', 'rapidos', 'lento', 'lentos', 'nunca llegaron'],
      fr: ['attente', 'attendre', 'attendu', 'retard', 'lent', 'lente', 'rapide', 'rapides'],
      pt: ['espera', 'esperar', 'demora', 'demorou', 'demorado', 'atraso', 'rapido', 'rapida', 'lento'],
      de: ['warten', 'wartezeit', 'gewartet', 'schnell', 'schnelle', 'langsam', 'verspatung'],
      it: ['attesa', 'aspettare', 'aspettato', 'ritardo', 'veloce', 'veloci', 'lento', 'lenti'],
      nl: ['wachten', 'wachttijd', 'gewacht', 'snel', 'snelle', 'traag', 'langzaam'],
      sv: ['vanta', 'vantade', 'vantetid', 'snabb', 'snabbt', 'langsam', 'langsamt'],
      da: ['vente', 'ventede', 'ventetid', 'hurtig', 'hurtigt', 'langsom', 'langsomt'],
      no: ['vente', 'ventet', 'ventetid', 'rask', 'raskt', 'treg', 'tregt'],
    },
  },
  {
    theme: 'price',
    en: ['price', 'prices', 'priced', 'overpriced', 'expensive', 'charges', 'charged', 'overcharged', 'billing', 'bill', 'fees', 'value', 'upfront'],
    whole: {
      es: ['precio', 'precios', 'caro', 'cara', 'cobraron'],
      fr: ['prix', 'cher', 'chere', 'chers', 'tarif', 'tarifs', 'facture'],
      pt: ['preco', 'precos', 'caro', 'caros', 'cobraram'],
      de: ['preis', 'preise', 'teuer', 'rechnung', 'preiswert'],
      it: ['prezzo', 'prezzi', 'caro', 'costoso', 'conto'],
      nl: ['prijs', 'prijzen', 'duur', 'dure', 'rekening', 'betaalbaar'],
      sv: ['pris', 'priset', 'priser', 'dyr', 'dyrt', 'notan', 'prisvart'],
      da: ['pris', 'prisen', 'priser', 'dyr', 'dyrt', 'regningen'],
      no: ['pris', 'prisen', 'priser', 'dyr', 'dyrt', 'regningen'],
    },
  },
  {
    theme: 'quality',
    en: ['quality', 'fixed', 'delicious', 'came back', 'redone', 'wrong', 'uneven', 'runs great', 'won'],
    whole: {
      es: ['calidad', 'delicioso', 'deliciosa', 'comida'],
      fr: ['qualite', 'delicieux', 'delicieuse', 'repas', 'cuisine'],
      pt: ['qualidade', 'delicioso', 'deliciosa', 'comida', 'saboroso'],
      de: ['qualitat', 'essen', 'lecker', 'leckere', 'leckeres'],
      it: ['qualita', 'cibo', 'delizioso', 'deliziosa', 'buonissimo'],
      nl: ['kwaliteit', 'eten', 'lekker', 'lekkere', 'smaak'],
      sv: ['kvalitet', 'maten', 'mat', 'smak', 'lacker'],
      da: ['kvalitet', 'maden', 'mad', 'smag', 'laekker'],
      no: ['kvalitet', 'maten', 'mat', 'smak', 'nydelig'],
    },
  },
  {
    theme: 'communication',
    en: ['explained', 'listened', 'informed', 'called', 'answered', 'communication', 'returned my calls', 'respond', 'responsive', 'phone'],
    whole: {
      es: ['telefono', 'contesto', 'contestaron', 'explicaron'],
      fr: ['telephone', 'rappele', 'repondu', 'explique', 'injoignable'],
      pt: ['telefone', 'ligaram', 'responderam', 'explicou', 'explicaram'],
      de: ['telefon', 'erreichbar', 'zuruckgerufen', 'erklart'],
      it: ['telefono', 'risposto', 'spiegato', 'richiamato'],
      nl: ['telefoon', 'gebeld', 'teruggebeld', 'uitgelegd'],
      sv: ['telefon', 'ringde', 'svarade', 'forklarade'],
      da: ['telefon', 'telefonen', 'ringede', 'svarede', 'forklarede'],
      no: ['telefon', 'telefonen', 'ringte', 'svarte', 'forklarte'],
    },
  },
  {
    theme: 'cleanliness',
    en: ['clean', 'spotless', 'dirty', 'mess', 'cleaned up'],
    whole: {
      es: ['limpio', 'limpia', 'sucio', 'sucia'],
      fr: ['propre', 'propres', 'sale', 'sales', 'proprete'],
      pt: ['limpo', 'limpa', 'sujo', 'suja', 'limpeza'],
      de: ['sauber', 'saubere', 'schmutzig', 'dreckig', 'sauberkeit'],
      it: ['pulito', 'pulita', 'sporco', 'sporca', 'pulizia'],
      nl: ['schoon', 'schone', 'vies', 'vieze', 'smerig'],
      sv: ['ren', 'rent', 'smutsig', 'smutsigt', 'stadat'],
      da: ['ren', 'rent', 'beskidt', 'beskidte', 'rengoring'],
      no: ['ren', 'rent', 'skitten', 'skittent', 'renhold'],
    },
  },
  {
    theme: 'booking',
    en: ['appointment', 'booked', 'book', 'schedule', 'double booked', 'fit me in', 'reservation'],
    whole: {
      es: ['cita', 'citas', 'reserva', 'reservacion'],
      fr: ['rendez vous', 'rdv', 'reservation'],
      pt: ['agendamento', 'marcacao', 'reserva', 'horario'],
      de: ['termin', 'termine', 'reservierung'],
      it: ['appuntamento', 'prenotazione'],
      nl: ['afspraak', 'reservering', 'gereserveerd'],
      sv: ['bokning', 'bokade', 'bordsbokning'],
      da: ['booking', 'bestilling', 'reservation'],
      no: ['booking', 'bestilling', 'reservasjon'],
    },
  },
];
const ENGLISH_ENDINGS = '(?:s|es|d|ed|ing|er|ers|ly|y)?';
export const THEMES = THEME_WORDS.map((t) => ({ ...t, en: new RegExp(`(?:^| )(?:${t.en.map(fold).join('|')})${ENGLISH_ENDINGS}(?= |$)`) }));

export interface ReviewAnalysis {
  sampled: number;
  complete: boolean;
  /** The reviews given are the place's newest, newest first (Yelp's sort_by=newest, the sample). */
  newestFirst: boolean;
  /** Counts within this many days of now are exact: every review (Infinity), the newest ones back
   *  to the oldest given, or none (0) for a few picked by relevance. */
  exactDays: number;
  last30: number;
  last90: number;
  previous90: number;
  last365: number;
  daysSinceLatest: number | null;
  daysSinceOldest: number | null;
  sampledAverage: number | null;
  starShare: Record<1 | 2 | 3 | 4 | 5, number | null>;
  sentimentAverage: number | null;
  positiveShare: number | null;
  negativeShare: number | null;
  neutralShare: number | null;
  averageWords: number | null;
  withTextShare: number | null;
  monthlyVelocity: number | null;
  velocityTrend: number | null;
  positiveThemes: Array<{ theme: string; count: number }>;
  negativeThemes: Array<{ theme: string; count: number }>;
  ownerResponsesKnown: boolean;
  responseRate: number | null;
  negativeResponseRate: number | null;
  medianResponseHours: number | null;
  responsesLast90: number | null;
  byMonth: Array<{ month: string; count: number }>;
  /** Review texts by language (ISO 639-1; "unknown" when it could not be told). */
  languages: Record<string, number>;
  /** Texts whose sentiment is not measured (a language without a lexicon, or one not told with
   *  confidence): left out of the sentiment figures. */
  sentimentNotMeasured: number;
  /** Those texts by language ("unknown" when it could not be told). */
  notMeasuredLanguages: Record<string, number>;
  /** Each of those texts' language and stars, so a share can say what it was not read from. */
  notMeasuredTexts: UnmeasuredText[];
}

/** English sentiment (AFINN-165) of a text. */
export function sentimentOf(text: string): { score: number; comparative: number } {
  return sentimentIn(text, 'en')!;
}

/** The text we read a review's sentiment from and its language: the provider's English
 *  translation when it gives one, else the text in the language the provider states or we detect. */
export function readable(review: Review): { text: string; language: string | null; written: string | null } {
  const stated = review.language?.trim().toLowerCase().split(/[-_]/)[0];
  const written = stated || detectLanguage(review.text);
  if (review.translation?.trim()) return { text: review.translation, language: 'en', written };
  return { text: review.text, language: written, written };
}

const share = (n: number, of: number) => (of > 0 ? Math.round((n / of) * 10000) / 100 : null);

export function analyseReviews(reviews: Review[], options: { now: Date; complete: boolean; ownerResponsesKnown: boolean; newestFirst?: boolean }): ReviewAnalysis {
  const now = options.now.getTime();
  const ages = reviews.map((r) => (now - Date.parse(r.date)) / DAY).filter((d) => Number.isFinite(d));
  const n = reviews.length;
  const count = (from: number, to: number) => ages.filter((d) => d >= from && d < to).length;
  const stars = { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 } as Record<1 | 2 | 3 | 4 | 5, number>;
  for (const r of reviews) stars[Math.min(5, Math.max(1, Math.round(r.rating))) as 1 | 2 | 3 | 4 | 5]++;

  const texts = reviews.filter((r) => r.text.trim()).map((r) => ({ review: r, ...readable(r) }));
  const languages: Record<string, number> = {};
  for (const t of texts) languages[t.written ?? 'unknown'] = (languages[t.written ?? 'unknown'] ?? 0) + 1;
  // Only texts in a language we measure count toward sentiment: the rest are not measured, not neutral.
  const sentiments = texts.flatMap((t) => {
    const s = t.language ? sentimentIn(t.text, t.language) : null;
    return s && t.language ? [{ review: t.review, text: t.text, language: t.language, ...s }] : [];
  });
  const notMeasuredLanguages: Record<string, number> = {};
  const measured = new Set(sentiments.map((s) => s.review));
  const notMeasuredTexts: UnmeasuredText[] = [];
  for (const t of texts) {
    if (measured.has(t.review)) continue;
    notMeasuredLanguages[t.written ?? 'unknown'] = (notMeasuredLanguages[t.written ?? 'unknown'] ?? 0) + 1;
    notMeasuredTexts.push({ language: t.written ?? 'unknown', rating: t.review.rating });
  }
  const pos = sentiments.filter((s) => s.score > 0).length;
  const neg = sentiments.filter((s) => s.score < 0).length;

  const positive = new Map<string, number>();
  const negative = new Map<string, number>();
  for (const s of sentiments) {
    const lower = fold(s.text);
    for (const t of THEMES) {
      const found = s.language === 'en' ? t.en.test(lower) : (t.whole[s.language] ?? []).some((w) => countPhrase(lower, w) > 0);
      if (!found) continue;
      const target = s.score > 0 && s.review.rating >= 4 ? positive : s.score < 0 || s.review.rating <= 2 ? negative : null;
      if (target) target.set(t.theme, (target.get(t.theme) ?? 0) + 1);
    }
  }
  const ranked = (m: Map<string, number>) =>
    [...m.entries()].filter(([, c]) => c >= 2).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([theme, c]) => ({ theme, count: c }));

  const answered = reviews.filter((r) => r.ownerResponse);
  const lows = reviews.filter((r) => r.rating <= 2);
  const hours = answered
    .map((r) => (r.ownerResponse!.date ? (Date.parse(r.ownerResponse!.date) - Date.parse(r.date)) / 3_600_000 : NaN))
    .filter((h) => Number.isFinite(h) && h >= 0)
    .sort((a, b) => a - b);
  const median = hours.length ? (hours.length % 2 ? hours[(hours.length - 1) / 2]! : (hours[hours.length / 2 - 1]! + hours[hours.length / 2]!) / 2) : null;

  const months = new Map<string, number>();
  for (let i = 11; i >= 0; i--) {
    const d = new Date(options.now);
    d.setUTCDate(1);
    d.setUTCMonth(d.getUTCMonth() - i);
    months.set(d.toISOString().slice(0, 7), 0);
  }
  for (const r of reviews) {
    const m = r.date.slice(0, 7);
    if (months.has(m)) months.set(m, months.get(m)! + 1);
  }

  const last90 = count(0, 90);
  const previous90 = count(90, 180);
  const last365 = count(0, 365);
  const known = options.ownerResponsesKnown;
  return {
    sampled: n,
    complete: options.complete,
    newestFirst: options.newestFirst ?? false,
    exactDays: options.complete ? Infinity : options.newestFirst && ages.length ? Math.floor(Math.max(...ages)) : 0,
    last30: count(0, 30),
    last90,
    previous90,
    last365,
    daysSinceLatest: ages.length ? Math.floor(Math.min(...ages)) : null,
    daysSinceOldest: ages.length ? Math.floor(Math.max(...ages)) : null,
    sampledAverage: n ? Math.round((reviews.reduce((s, r) => s + r.rating, 0) / n) * 100) / 100 : null,
    starShare: { 1: share(stars[1], n), 2: share(stars[2], n), 3: share(stars[3], n), 4: share(stars[4], n), 5: share(stars[5], n) },
    sentimentAverage: sentiments.length ? Math.round((sentiments.reduce((s, x) => s + x.comparative, 0) / sentiments.length) * 1000) / 1000 : null,
    positiveShare: share(pos, sentiments.length),
    negativeShare: share(neg, sentiments.length),
    neutralShare: share(sentiments.length - pos - neg, sentiments.length),
    averageWords: texts.length ? Math.round(texts.reduce((s, x) => s + x.review.text.trim().split(/\s+/).length, 0) / texts.length) : null,
    withTextShare: share(texts.length, n),
    languages,
    sentimentNotMeasured: texts.length - sentiments.length,
    notMeasuredLanguages,
    notMeasuredTexts,
    monthlyVelocity: n ? Math.round((last365 / 12) * 100) / 100 : null,
    velocityTrend: last90 + previous90 > 0 ? Math.round(((last90 - previous90) / Math.max(1, previous90)) * 100) / 100 : null,
    positiveThemes: ranked(positive),
    negativeThemes: ranked(negative),
    ownerResponsesKnown: known,
    responseRate: known ? share(answered.length, n) : null,
    negativeResponseRate: known ? share(lows.filter((r) => r.ownerResponse).length, lows.length) : null,
    medianResponseHours: known && median !== null ? Math.round(median * 10) / 10 : null,
    responsesLast90: known ? answered.filter((r) => r.ownerResponse!.date && (now - Date.parse(r.ownerResponse!.date)) / DAY < 90).length : null,
    byMonth: [...months.entries()].map(([month, c]) => ({ month, count: c })),
  };
}
