// Sentiment in the review's language: English (AFINN-165); Spanish, French, Portuguese, German,
// Italian, Dutch and Swedish (our lexicons); others, and texts whose language is not told with
// confidence, not measured rather than neutral or English. Negation and idioms read by grammar.
import { describe, expect, it } from 'vitest';
import { detectLanguage, sentimentIn } from '../../api/report/analysis/language.ts';
import { LEXICONS } from '../../api/report/analysis/lexicons.ts';
import { fold } from '../../api/report/analysis/matching.ts';
import { analyseReviews } from '../../api/report/analysis/reviews.ts';
import type { Review } from '../../api/report/model/types.ts';

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
    // Short English with one common word in five reads as English.
    ['Front desk staff handled it.', 'en'],
    // Yelp states no language: short texts are told by their words, or not told at all.
    ['Inte bra', 'sv'],
    ['Slecht', 'nl'],
    ['Mycket trevlig personal och god mat!', 'sv'],
    ['Het eten was heerlijk en de bediening vriendelijk.', 'nl'],
    ['Meget god mad og venligt personale, vi kommer igen.', 'da'],
    ['Veldig god mat og hyggelig personale, vi kommer igjen.', 'no'],
    ['Ich empfehle es nicht.', 'de'],
    ["Ce n'était vraiment pas terrible.", 'fr'],
    // A common word weighs more than a review word many languages write ("super", "problem").
    ['Kein Problem, alles super.', 'de'],
    ['Mai più, pessimo.', 'it'],
    ['Mi comida estaba fría.', 'es'],
    ['Best tacos in town, hands down', 'en'],
    // Two languages as likely, or no word of any: not told, never English by default.
    ['Prima', null],
    ['Salamat po', null],
    ['Ok ok', null],
  ] as Array<[string, string | null]>)('%s is %s', (text, lang) => expect(detectLanguage(text)).toBe(lang));

  it('scores Spanish as the English version scores', () => {
    expect(sentimentIn('Excelente servicio, muy amables y rápidos. ¡Los recomiendo!', 'es')!.score).toBeGreaterThan(0);
    expect(sentimentIn('Terrible, nunca llegaron y nadie contestó el teléfono.', 'es')!.score).toBeLessThan(-2);
    // "No" before a word turns it around.
    expect(sentimentIn('No es bueno', 'es')!.score).toBeLessThan(0);
    expect(sentimentIn('No fue malo', 'es')!.score).toBeGreaterThan(0);
    expect(sentimentIn('Bardzo miła obsługa', 'pl')).toBeNull();
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

  it('writes every lexicon word folded, idioms and grammar words too', () => {
    for (const { words, negators, trailing, idioms, breaks } of Object.values(LEXICONS)) {
      for (const w of [...Object.keys(words), ...negators, ...trailing, ...breaks, ...idioms.flatMap((i) => i.words)]) expect(fold(w)).toBe(w);
      for (const t of trailing) expect(negators.has(t)).toBe(true);
    }
  });

  it('writes every lexicon word folded, as texts are folded before they are scored', () => {
    for (const { words, negators } of Object.values(LEXICONS)) for (const w of [...Object.keys(words), ...negators]) expect(fold(w)).toBe(w);
  });

  it('leaves reviews in other languages out of sentiment, never as neutral', () => {
    const polish = analyseReviews([review('Bardzo niemiła obsługa, jedzenie zimne.')], { now: NOW, complete: true, ownerResponsesKnown: false });
    expect(polish).toMatchObject({ sentimentAverage: null, positiveShare: null, neutralShare: null, sentimentNotMeasured: 1, languages: { pl: 1 }, notMeasuredLanguages: { pl: 1 } });
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

describe('themes in Dutch, Swedish, Danish and Norwegian', () => {
  it('finds the staff and the wait in each, in its own language', () => {
    const low = (text: string, language: string): Review => review(text, { rating: 1, language });
    const r = analyseReviews(
      [
        low('Onvriendelijk personeel en een lange wachttijd.', 'nl'),
        low('Otrevlig personal och lång väntetid.', 'sv'),
        low('Uvenligt personale og lang ventetid, dårlig.', 'da'),
        low('Uvennlig personale og lang ventetid, dårlig.', 'no'),
      ],
      { now: NOW, complete: true, ownerResponsesKnown: false },
    );
    expect(r.negativeShare).toBe(100);
    expect(r.negativeThemes).toEqual(expect.arrayContaining([{ theme: 'staff', count: 4 }, { theme: 'wait time', count: 4 }]));
  });
});

describe('negation and idioms, by grammar', () => {
  const sign = (text: string, language: string) => Math.sign(sentimentIn(text, language)!.score);
  // Each of these read the other way, or as neutral, before (decision 0222).
  it.each([
    // Negation after the verb (German, Dutch, Swedish; French "pas" alone).
    ['Ich empfehle es nicht.', 'de', -1],
    ['Das Essen schmeckte gut, aber ich empfehle den Service nicht.', 'de', 0],
    ['Ik kan het niet aanraden.', 'nl', -1],
    ['Ik raad het restaurant aan, niet slecht!', 'nl', 1],
    ['Jag rekommenderar det inte.', 'sv', -1],
    ['Maten var inte bra.', 'sv', -1],
    ['Je recommande pas.', 'fr', -1],
    // Negation before the verb (Spanish, Italian, Portuguese, English), a word or two between.
    ['Not the best pizza in town.', 'en', -1],
    // Idioms whose sense is not their words'.
    ["Ce n'était vraiment pas terrible.", 'fr', -1],
    ["Je n'ai pas aimé.", 'fr', -1],
    ['Je ne reviendrai jamais.', 'fr', -1],
    ['Non mi è piaciuto per niente.', 'it', -1],
    ['No me gustó.', 'es', -1],
    ['Pas top, pas terrible.', 'fr', -1],
    ["N'hésitez pas !", 'fr', 1],
    ["Couldn't be happier.", 'en', 1],
    ['Could have been better.', 'en', -1],
    ['Nada del otro mundo.', 'es', -1],
    ["Non è il massimo.", 'it', -1],
    ['Nada mal, gostei.', 'pt', 1],
    ['Niet slecht.', 'nl', 1],
    ['Inte illa alls.', 'sv', 1],
    ['Jeg kan ikke anbefale det.', 'da', -1],
    ['Jeg anbefaler det ikke.', 'da', -1],
    ['Ikke dårligt!', 'da', 1],
    ['Maden var ikke god.', 'da', -1],
    ['Jeg anbefaler det ikke.', 'no', -1],
    ['Ikke verst!', 'no', 1],
    ['Maten var ikke god, og servitøren var frekk.', 'no', -1],
    ['Nie wieder.', 'de', -1],
  ] as Array<[string, string, number]>)('%s (%s) reads %i', (text, language, expected) => expect(sign(text, language)).toBe(expected));

  // Read right before the grammar came in, and kept so: a negator before the verb with a word
  // between, an idiom that the word-by-word reading happened to get right, a word about the whole
  // visit ("leider") never turned, a clause that does not reach into the next one.
  it.each([
    ['Ich kann es leider nicht empfehlen.', 'de', -1],
    ['Je ne le recommande pas.', 'fr', -1],
    ['No lo recomiendo.', 'es', -1],
    ['Non lo consiglio a nessuno.', 'it', -1],
    ['Não recomendo.', 'pt', -1],
    ['I would not recommend it.', 'en', -1],
    ["Don't miss it!", 'en', 1],
    ['Nicht schlecht!', 'de', 1],
    ['Gar nicht so schlecht.', 'de', 1],
    ['Not bad at all.', 'en', 1],
    ['Nothing but great service.', 'en', 1],
    ['No está mal.', 'es', 1],
    ['Sin duda lo recomiendo.', 'es', 1],
    ['Sans doute le meilleur du quartier.', 'fr', 1],
    ['Niente male.', 'it', 1],
    ['Leider nicht gut.', 'de', -1],
    ['Nicht billig, aber sehr gut.', 'de', 1],
    ['Not cheap, but excellent food.', 'en', 1],
  ] as Array<[string, string, number]>)('%s (%s) still reads %i', (text, language, expected) => expect(sign(text, language)).toBe(expected));

  it('a place with 4 of 5 negative German reviews reads negative, as written (Google) or with no language stated (Yelp)', () => {
    const texts: Array<[number, string]> = [
      [1, 'Ich empfehle es nicht.'],
      [1, 'Das Essen war kalt und die Bedienung unfreundlich. Ich komme nie wieder.'],
      [2, 'Leider nicht zu empfehlen, viel zu teuer.'],
      [1, 'Wir haben eine Stunde gewartet, das Personal hat uns ignoriert. Ich empfehle das Lokal nicht weiter.'],
      [5, 'Nicht schlecht! Sehr freundliches Personal.'],
    ];
    for (const language of ['de', undefined]) {
      const r = analyseReviews(texts.map(([rating, text]) => review(text, { rating, language })), { now: NOW, complete: true, ownerResponsesKnown: false });
      expect(r.languages).toEqual({ de: 5 });
      expect(r.negativeShare).toBe(80);
      expect(r.positiveShare).toBe(20);
      expect(r.sentimentAverage!).toBeLessThan(0);
    }
  });

  it('Swedish and Dutch with no language stated are read in their language; what cannot be told is not measured, never English', () => {
    const r = analyseReviews(
      [review('Inte bra', { rating: 1 }), review('Slecht', { rating: 1 }), review('Prima', { rating: 4 }), review('Inte bra alls, maten var kall.', { rating: 2 }), review('Mycket trevlig personal och god mat!', { rating: 5 })],
      { now: NOW, complete: true, ownerResponsesKnown: false },
    );
    expect(r.languages).toEqual({ sv: 3, nl: 1, unknown: 1 });
    expect(r.sentimentNotMeasured).toBe(1);
    expect(r.notMeasuredLanguages).toEqual({ unknown: 1 });
    expect(r.negativeShare).toBe(75);
    expect(r.positiveShare).toBe(25);
    expect(r.neutralShare).toBe(0);
    // Nothing told: nothing measured, no share at all (never 0% positive, 100% neutral).
    const none = analyseReviews([review('Prima'), review('Salamat po')], { now: NOW, complete: true, ownerResponsesKnown: false });
    expect(none).toMatchObject({ positiveShare: null, neutralShare: null, negativeShare: null, sentimentAverage: null, sentimentNotMeasured: 2 });
  });
});
