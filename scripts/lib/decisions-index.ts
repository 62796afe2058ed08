// The decision records' index (docs/decisions/README.md): read from the records' own headers and
// from git, so it is written by `npm run docs:decisions` and a unit test catches it going stale.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const STATUSES = ['Accepted', 'Amended', 'Superseded'] as const;
export type Status = (typeof STATUSES)[number];

export type DecisionRecord = {
  file: string;
  number: string;
  title: string;
  status: Status | null;
  amendedBy: string[];
  supersededBy: string[];
};

const RECORD = /^(\d{4})-.+\.md$/;

function numbers(value: string | undefined): string[] {
  return value ? value.split(/,\s*/).map((n) => n.trim()).filter(Boolean) : [];
}

/** The header is the title line, then `Status:` and the optional `Amended by:` / `Superseded by:` lines before the first section. */
export function parseRecord(file: string, text: string): DecisionRecord {
  const number = RECORD.exec(file)?.[1] ?? '';
  const lines = text.split('\n');
  const title = (lines[0] ?? '').replace(/^#\s*\d{4}:?\s*/, '').trim();
  const firstSection = lines.findIndex((line, i) => i > 0 && line.startsWith('#'));
  const header = lines.slice(1, firstSection === -1 ? lines.length : firstSection);
  const field = (name: string) => header.map((line) => new RegExp(`^${name}:\\s*(.*)$`).exec(line)?.[1]?.trim()).find((v) => v !== undefined);
  const status = field('Status');
  return {
    file,
    number,
    title,
    status: (STATUSES as readonly string[]).includes(status ?? '') ? (status as Status) : null,
    amendedBy: numbers(field('Amended by')),
    supersededBy: numbers(field('Superseded by')),
  };
}

export function readRecords(dir: string): DecisionRecord[] {
  return readdirSync(dir)
    .filter((file) => RECORD.test(file))
    .sort()
    .map((file) => parseRecord(file, readFileSync(join(dir, file), 'utf8')));
}

/**
 * The day each record was first committed (author date, so a rebase or merge keeps it), from one
 * `git log --diff-filter=A`; renames count as adds so a renumbered record keeps a date. A record
 * not committed yet gets `today`: the index written with it stays current once it is committed.
 */
export function addedDates(dir: string, today: string): Map<string, string> {
  const out = execFileSync('git', ['log', '--diff-filter=A', '--no-renames', '--format=%as', '--name-only', '--', dir], {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  const dates = new Map<string, string>();
  let date = '';
  for (const line of out.split('\n')) {
    if (/^\d{4}-\d{2}-\d{2}$/.test(line)) date = line;
    else if (line.trim()) {
      const file = line.trim().split('/').pop()!;
      // Newest first: the last add seen is the first one.
      if (RECORD.test(file)) dates.set(file, date);
    }
  }
  for (const file of readdirSync(dir)) if (RECORD.test(file) && !dates.has(file)) dates.set(file, today);
  return dates;
}

/** What is wrong with the records' headers, one line each; empty when all is well. */
export function headerProblems(records: DecisionRecord[]): string[] {
  const known = new Set(records.map((r) => r.number));
  const problems: string[] = [];
  const seen = new Map<string, string>();
  for (const r of records) {
    if (seen.has(r.number)) problems.push(`${r.file}: number ${r.number} is also ${seen.get(r.number)}`);
    seen.set(r.number, r.file);
    if (!r.title) problems.push(`${r.file}: no title on its first line ("# ${r.number} Title")`);
    if (!r.status) problems.push(`${r.file}: no "Status: ${STATUSES.join(' | ')}" line under its title`);
    if (r.status === 'Superseded' && r.supersededBy.length === 0) problems.push(`${r.file}: Superseded without a "Superseded by:" line`);
    if (r.status !== 'Superseded' && r.supersededBy.length > 0) problems.push(`${r.file}: "Superseded by:" but Status ${r.status}`);
    for (const later of [...r.amendedBy, ...r.supersededBy]) {
      if (!known.has(later)) problems.push(`${r.file}: names ${later}, which is no record`);
      else if (later <= r.number) problems.push(`${r.file}: names ${later}, which is not a later record`);
    }
  }
  return problems;
}

function link(number: string, records: DecisionRecord[]): string {
  const r = records.find((x) => x.number === number);
  return r ? `[${number}](${r.file})` : number;
}

export function renderIndex(records: DecisionRecord[], dates: Map<string, string>): string {
  const rows = records.map((r) => {
    const status = r.status === 'Amended'
      ? `Amended ${r.amendedBy.length ? `by ${r.amendedBy.map((n) => link(n, records)).join(', ')}` : 'in the record'}`
      : (r.status ?? '**none**');
    const superseded = r.supersededBy.map((n) => link(n, records)).join(', ') || '-';
    const title = r.title.replace(/\|/g, '\\|');
    return `| [${r.number}](${r.file}) | ${title} | ${status} | ${dates.get(r.file) ?? '-'} | ${superseded} |`;
  });
  const counts = STATUSES.map((s) => `${records.filter((r) => r.status === s).length} ${s.toLowerCase()}`).join(', ');
  return [
    '# Decision records',
    '',
    '<!-- Written by `npm run docs:decisions` from the records\' headers and git; do not edit by hand. -->',
    '',
    'Each record says why something is the way it is: its context, the decision and its consequences.',
    'A record\'s header gives its status: **Accepted** (in force as written), **Amended** (in force,',
    'changed in part by the later records named, or by a section of its own) or **Superseded** (no',
    'longer in force; read the record named instead). The date is the day the record was first',
    'committed. A new record takes the next free number and the header of',
    '`# NNNN Title`, a blank line, `Status: Accepted`; a record it changes gets `Amended by: NNNN`',
    '(or `Status: Superseded` and `Superseded by: NNNN`); then run `npm run docs:decisions`.',
    '',
    `${records.length} records: ${counts}.`,
    '',
    '| No. | Title | Status | Date | Superseded by |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
}
