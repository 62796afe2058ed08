// How an AI answer is read (issue 50, decision 0301): whom it names, in order, matched with the
// report's matcher; a shared trade word is not a name; names in scripts without spaces.
import { describe, expect, it } from 'vitest';
import { domainOf, readAnswer, type Contender } from '../../api/services/ai-visibility/answers.ts';

const own: Contender = { key: 'own', name: 'Brightwater Family Dental', website: 'https://brightwaterdental.com' };
const sushi: Contender = { key: 'c1', name: 'すし匠 オースティン店' };

describe('readAnswer', () => {
  it('names list leads and bold names in order, unknown businesses included', () => {
    const r = readAnswer('Options:\n1. **Sunrise Dental** - new\n2. Brightwater Dental: gentle\n3) Oak Hill Smiles (open Sundays)', [], [own]);
    expect(r.named).toEqual([
      { key: null, name: 'Sunrise Dental' },
      { key: 'own', name: 'Brightwater Dental' },
      { key: null, name: 'Oak Hill Smiles' },
    ]);
  });

  it('does not take a name that only shares the trade words for the business', () => {
    const r = readAnswer('1. Family Dental Care - walk-ins\nMany family dental practices take new patients.', [], [own]);
    expect(r.named).toEqual([{ key: null, name: 'Family Dental Care' }]);
  });

  it('finds a name in prose, in a script written without spaces', () => {
    const r = readAnswer('オースティンなら、すし匠オースティン店がおすすめです。', [], [own, sushi]);
    expect(r.named.map((n) => n.key)).toEqual(['c1']);
  });

  it('counts each cited domain once per answer', () => {
    expect(readAnswer('x', ['https://www.yelp.com/a', 'https://yelp.com/b', 'healthgrades.com'], []).domains).toEqual(['yelp.com', 'healthgrades.com']);
    expect(domainOf('not a domain')).toBeNull();
  });
});
