// English is read with AFINN-165's words by LocalRank's own scorer (lexicons.ts, decision 0222).
// The `sentiment` package, loaded first here as any other module may load it, adds its emoji
// scores to the very list the words are read from; some emoji fold to letters ("ℹ" to "i"), which
// must not become English words. And "I'll" is "I ll", not "ill".
import Sentiment from 'sentiment';
import { describe, expect, it } from 'vitest';
import { sentimentIn } from '../../api/report/analysis/language.ts';
import { ENGLISH_WORDS } from '../../api/report/analysis/lexicons.ts';

describe('English', () => {
  it('takes AFINN\'s words only, whatever else the package put in its list', () => {
    expect(new Sentiment().analyze('ℹ️').score).not.toBeNaN();
    for (const w of Object.keys(ENGLISH_WORDS)) expect(w).toMatch(/^[a-z0-9]+$/);
    expect(sentimentIn('I was not disappointed.', 'en')!.score).toBe(2);
  });

  it.each([
    ["I don't think I'll be back.", 0],
    ["He'll fix it, they're great.", 3],
    ["We'll see.", 0],
    ["Don't go there, it's awful.", -3],
  ])('an apostrophe separates words except in "n\'t": %s', (text, score) => expect(sentimentIn(text, 'en')!.score).toBe(score));
});
