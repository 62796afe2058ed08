// `npm run docs:methodology`: writes docs/methodology.md from the data-point registry.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderMethodology } from '../api/report/analysis/methodology.ts';

const target = fileURLToPath(new URL('../docs/methodology.md', import.meta.url));
writeFileSync(target, renderMethodology());
console.log(`wrote ${target}`);
