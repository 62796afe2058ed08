// Sentiment in the review's language: English (AFINN-165); Spanish, French, Portuguese, German and
// Italian (our lexicons); others not measured rather than neutral.
import { describe, expect, it } from 'vitest';
import { detectLanguage, sentimentIn } from '../../api/report/analysis/language.ts';
import { LEXICONS } from '../../api/report/analysis/lexicons.ts';
import { fold } from '../../api/report/analysis/matching.ts';
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
    // Short reviews with one common word or none: their review words tell.
    ['Muy buena atención, excelente servicio', 'es'],
    ['Atendimento ótimo, muito rápido. Recomendo!', 'pt'],
    ['Service impeccable, personnel sympathique.', 'fr'],
    ['Servizio ottimo, personale gentilissimo e professionale.', 'it'],
    ['Sehr freundliches Personal, super schnell.', 'de'],
    // Words English shares with them ("excellent", "terrible", "super") stay English.
    ['Excellent service, terrible parking, super friendly staff.', 'en'],
    ['Het personeel was erg vriendelijk en het eten was heel lekker.', 'nl'],
    // Languages told by their letters, composed or not.
    ['Dịch vụ rất tốt, nhân viên thân thiện.', 'vi'],
    ['Dịch vụ rất tốt, nhân viên thân thiện.'.normalize('NFD'), 'vi'],
    ['Bardzo miła obsługa, polecam!', 'pl'],
    ['Personál byl velmi příjemný.', 'cs'],
    ['Çok güzel, personel ilgili ve hızlı.', 'tr'],
    // Eight words or more in no language listed: not recognised, not taken for English.
    ['Napakabait ng mga staff dito at sobrang linis ng lugar nila.', null],
    ['Sevis la te bon anpil, moun yo janm fè nou tann.', null],
    // Short English with no common word still reads as English.
    ['Front desk staff handled it.', 'en'],
  ] as Array<[string, string | null]>)('%s is %s', (text, lang) => expect(detectLanguage(text)).toBe(lang));

  it('scores Spanish as the English version scores', () => {
    expect(sentimentIn('Excelente servicio, muy amables y rápidos. ¡Los recomiendo!', 'es')!.score).toBeGreaterThan(0);
    expect(sentimentIn('Terrible, nunca llegaron y nadie contestó el teléfono.', 'es')!.score).toBeLessThan(-2);
    // "No" before a word turns it around.
    expect(sentimentIn('No es bueno', 'es')!.score).toBeLessThan(0);
    expect(sentimentIn('No fue malo', 'es')!.score).toBeGreaterThan(0);
    expect(sentimentIn('Het eten was heel lekker', 'nl')).toBeNull();
  });

  it.each([
    ['fr', 'Excellent accueil, personnel très sympathique, je recommande !', 'Le service était très lent et le personnel pas aimable.'],
    ['fr', 'Pas mal du tout, et pas cher.', "Je ne recommande pas, c'est une arnaque."],
    ['pt', 'Atendimento ótimo, muito rápido. Recomendo!', 'Não gostei, o serviço foi péssimo e demorado.'],
    ['de', 'Sehr freundliches Personal, super schnell und sauber.', 'Leider sehr unfreundlich und das Essen war nicht gut.'],
    ['it', 'Servizio ottimo, personale gentile e molto professionale.', 'Non è buono: pessimo servizio e attesa infinita.'],
  ])('scores %s both ways, a negator turning a word around', (language, good, bad) => {
    expect(detectLanguage(good)).toBe(language);
    expect(detectLanguage(bad)).toBe(language);
    expect(sentimentIn(good, language)!.score).toBeGreaterThan(0);
    expect(sentimentIn(bad, language)!.score).toBeLessThan(0);
  });

  it('writes every lexicon word folded, as texts are folded before they are scored', () => {
    for (const { words, negators } of Object.values(LEXICONS)) for (const w of [...Object.keys(words), ...negators]) expect(fold(w)).toBe(w);
  });

  it('leaves reviews in other languages out of sentiment, never as neutral', () => {
    const dutch = analyseReviews([review('Het personeel was erg onvriendelijk en het eten was koud.')], { now: NOW, complete: true, ownerResponsesKnown: false });
    expect(dutch).toMatchObject({ sentimentAverage: null, positiveShare: null, neutralShare: null, sentimentNotMeasured: 1, languages: { nl: 1 } });
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

  it('finds themes in French, Portuguese, German and Italian, each text in its own language only', () => {
    const low = (text: string): Review => review(text, { rating: 1 });
    const r = analyseReviews(
      [
        low("Personnel impoli et attente d'une heure."),
        low('Atendimento péssimo, demorou demais.'),
        low('Unfreundlich, lange Wartezeit und schmutzig.'),
        low('Camerieri scortesi? No: personale scortese e attesa infinita.'),
        // English: "sale" is not the French for dirty, and "late" is not found in "chocolate".
        review('Great sale on chocolate cake, lovely.', { rating: 5 }),
        review('Another great sale, lovely chocolate.', { rating: 5 }),
      ],
      { now: NOW, complete: true, ownerResponsesKnown: false },
    );
    expect(r.languages).toEqual({ fr: 1, pt: 1, de: 1, it: 1, en: 2 });
    expect(r.negativeThemes).toEqual(expect.arrayContaining([{ theme: 'staff', count: 4 }, { theme: 'wait time', count: 4 }]));
    expect(r.positiveThemes).toEqual([]);
  });
});
