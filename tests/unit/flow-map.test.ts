// docs/ARCHITECTURE.md's flows: each chain's files exist, are written in the document in order,
// and its figures are what `node scripts/flow-map.ts` measures now.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { figures, FLOWS } from '../../scripts/flow-map.ts';

const doc = readFileSync(new URL('../../docs/ARCHITECTURE.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');

describe('docs/ARCHITECTURE.md flows', () => {
  for (const [name, chain] of Object.entries(FLOWS)) {
    it(`${name}: the chain as written, with its measured figures`, () => {
      for (const file of chain) expect(existsSync(new URL(`../../${file}`, import.meta.url)), file).toBe(true);
      expect(doc).toContain(chain.map((file) => `\`${file}\``).join(' → '));
      const { files, folderChanges, twoWay } = figures(chain);
      const pairs = twoWay.length === 1 ? '1 two-way folder pair' : `${twoWay.length} two-way folder pairs`;
      expect(doc).toContain(`${files} files, ${folderChanges} folder changes, ${pairs}`);
    });
  }
});
