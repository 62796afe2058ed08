// Sentiment in the review's language: English (AFINN-165), Spanish (our lexicon), others not
// measured rather than neutral.
import { describe, expect, it } from 'vitest';
import { detectLanguage, sentimentIn } from '../../api/report/analysis/language.ts';
import { analyseReviews } from '../../api/report/analysis/reviews.ts';
import type { Review } from '../../api/report/types.ts';

const NOW = new Date('2026-11-22T12:00:00Z');
const review = (text: string, extra: Partial<Review> = {}): Review => ({ rating: 4, text, author: null, date: '2026-11-01T00:00:00Z', url: null, ownerResponse: null, ...extra });

describe('language', () => {
  it.each([
    ['Excelente servicio, muy amables y rápidos. ¡Los recomiendo!', 'es'],
    ['Terrible, nunca llegaron y nadie contestó el teléfono.', 'es'],
    ['Great staff, friendly and on time.', 'en'],
    ['Le service était très lent et le personnel pas aimable.', 'fr'],
    ['Отличное кафе, очень вкусно!', 'ru'],
    ['とても美味しかったです', 'ja'],
  ])('%s is %s', (text, lang) => expect(detectLanguage(text)).toBe(lang));

  it('scores Spanish as the English version scores', () => {
    expect(sentimentIn('Excelente servicio, muy amables y rápidos. ¡Los recomiendo!', 'es')!.score).toBeGreaterThan(0);
    expect(sentimentIn('Terrible, nunca llegaron y nadie contestó el teléfono.', 'es')!.score).toBeLessThan(-2);
    // "No" before a word turns it around.
    expect(sentimentIn('No es bueno', 'es')!.score).toBeLessThan(0);
    expect(sentimentIn('No fue malo', 'es')!.score).toBeGreaterThan(0);
    expect(sentimentIn('Le service était très lent', 'fr')).toBeNull();
  });

  it('leaves reviews in other languages out of sentiment, never as neutral', () => {
    const french = analyseReviews([review('Le service était très lent et le personnel pas aimable.')], { now: NOW, complete: true, ownerResponsesKnown: false });
    expect(french).toMatchObject({ sentimentAverage: null, positiveShare: null, neutralShare: null, sentimentNotMeasured: 1, languages: { fr: 1 } });
    const mixed = analyseReviews([review('Excelente, muy buena atención.'), review('Great, lovely staff.'), review('Сервис ужасный')], { now: NOW, complete: true, ownerResponsesKnown: false });
    expect(mixed.positiveShare).toBe(100);
    expect(mixed.sentimentNotMeasured).toBe(1);
  });

  it('reads the provider\'s English translation where there is one', () => {
    const r = analyseReviews([review('Nada especial.', { language: 'es', translation: 'Terrible and rude.' })], { now: NOW, complete: true, ownerResponsesKnown: false });
    expect(r.negativeShare).toBe(100);
    expect(r.languages).toEqual({ es: 1 });
  });

  it('finds recurring complaints in Spanish, whole words only', () => {
    const low = (text: string): Review => review(text, { rating: 1 });
    const r = analyseReviews([low('Terrible, nunca llegaron y nadie contestó el teléfono.'), low('Malo, la espera fue eterna y nadie contestó el teléfono.'), review('Excitable and excited, a citation.')], { now: NOW, complete: true, ownerResponsesKnown: false });
    expect(r.negativeThemes.map((t) => t.theme)).toEqual(expect.arrayContaining(['communication', 'wait time']));
    expect(r.positiveThemes.map((t) => t.theme)).not.toContain('booking');
  });
});
