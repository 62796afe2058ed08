import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { addedDates, headerProblems, parseRecord, readRecords, renderIndex } from '../../scripts/lib/decisions-index.ts';

const dir = fileURLToPath(new URL('../../docs/decisions/', import.meta.url));
const today = new Date().toISOString().slice(0, 10);

describe('the decision records index', () => {
  it('docs/decisions/README.md is current (run `npm run docs:decisions`)', () => {
    const records = readRecords(dir);
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toBe(renderIndex(records, addedDates(dir, today)));
  });

  it('every record has a title, a status, and names only later records that exist', () => {
    expect(headerProblems(readRecords(dir))).toEqual([]);
  });

  it('a record without a status line, or superseded without its successor, is named', () => {
    const records = [
      parseRecord('0001-a.md', '# 0001 A\n\nStatus: Superseded\n\n## Context\n'),
      parseRecord('0002-b.md', '# 0002: B\n\n## Context\nStatus: Accepted\n'),
      parseRecord('0003-c.md', '# 0003 C\n\nStatus: Amended\nAmended by: 0001, 0009\n'),
    ];
    expect(records[1]).toMatchObject({ number: '0002', title: 'B', status: null });
    expect(headerProblems(records)).toEqual([
      '0001-a.md: Superseded without a "Superseded by:" line',
      '0002-b.md: no "Status: Accepted | Amended | Superseded" line under its title',
      '0003-c.md: names 0001, which is not a later record',
      '0003-c.md: names 0009, which is no record',
    ]);
  });

  describe('in a repository of its own', () => {
    const root = mkdtempSync(join(tmpdir(), 'decisions-'));
    const records = join(root, 'docs', 'decisions');
    afterAll(() => rmSync(root, { recursive: true, force: true }));
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
        cwd: root,
        env: { ...process.env, GIT_AUTHOR_DATE: '2024-03-05T10:00:00Z', GIT_COMMITTER_DATE: '2024-03-05T10:00:00Z' },
      });

    it('picks up whatever records exist: a committed one with its day, a new one with today', () => {
      mkdirSync(records, { recursive: true });
      git('init', '-q');
      writeFileSync(join(records, '0001-first.md'), '# 0001 First\n\nStatus: Superseded\nSuperseded by: 0230\n');
      git('add', '.');
      git('commit', '-q', '-m', 'first');
      writeFileSync(join(records, '0230-later.md'), '# 0230: Later | piped\n\nStatus: Accepted\n');
      const found = readRecords(records);
      expect(headerProblems(found)).toEqual([]);
      const index = renderIndex(found, addedDates(records, '2024-04-01'));
      expect(index).toContain('| [0001](0001-first.md) | First | Superseded | 2024-03-05 | [0230](0230-later.md) |');
      expect(index).toContain('| [0230](0230-later.md) | Later \\| piped | Accepted | 2024-04-01 | - |');
      expect(index).toContain('2 records: 1 accepted, 0 amended, 1 superseded.');
    });
  });
});
