// `npm run docs:decisions`: writes docs/decisions/README.md, the index of the decision records,
// from their headers and the day git first saw each. Fails, naming the records, when a header is
// incomplete (the index is still written, with the gap shown).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { addedDates, headerProblems, readRecords, renderIndex } from './lib/decisions-index.ts';

const dir = fileURLToPath(new URL('../docs/decisions/', import.meta.url));
const records = readRecords(dir);
writeFileSync(`${dir}README.md`, renderIndex(records, addedDates(dir, new Date().toISOString().slice(0, 10))));
console.log(`wrote docs/decisions/README.md: ${records.length} records`);
const problems = headerProblems(records);
for (const problem of problems) console.error(`✗ ${problem}`);
if (problems.length) process.exitCode = 1;
