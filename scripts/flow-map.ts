// `node scripts/flow-map.ts`: the three main flows of docs/ARCHITECTURE.md as file chains, with
// figures anyone can reproduce: the files each chain pulls in (its relative imports, followed),
// how often the chain changes folder, and the folder pairs that import each other both ways
// among those files. Reads import lines; no build needed.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');

export const FLOWS: Record<string, string[]> = {
  'free report': [
    'site/islands/report-form/report-form.tsx', 'api/routes/report-requests.ts', 'api/services/report-requests.ts', 'api/jobs/worker.ts',
    'api/report/generate-job.ts', 'api/report/analyse.ts', 'api/report/persist.ts', 'api/report/render/renderer.ts', 'api/report/deliver.ts',
    'api/email/report-email.ts', 'api/email/mailer.ts', 'site/pages/report/[token].astro',
  ],
  'plan change': [
    'site/islands/subscribe/checkout.tsx', 'api/routes/billing.ts', 'api/services/billing/subscriptions.ts', 'api/services/billing/stripe.ts',
    'api/services/billing/webhook.ts', 'api/services/plans/entitlements.ts', 'api/services/plans/payers.ts',
  ],
  'custom report domain': [
    'api/routes/branding.ts', 'api/services/report-domains/domains.ts', 'api/services/report-domains/records.ts', 'api/server.ts',
    'api/services/report-domains/host.ts', 'api/services/reports.ts', 'site/pages/report/[token].astro',
  ],
};

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/g;

function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const out: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const target = relative(root, resolve(root, dirname(file), match[1]!)).split('\\').join('/');
    if (existsSync(join(root, target)) && /\.(ts|tsx|astro)$/.test(target)) out.push(target);
  }
  return out;
}

/** Every file a chain reaches through relative imports, the chain's own files included. */
export function reach(chain: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const todo = [...chain];
  while (todo.length) {
    const file = todo.pop()!;
    if (graph.has(file)) continue;
    const targets = importsOf(file);
    graph.set(file, targets);
    todo.push(...targets);
  }
  return graph;
}

export function figures(chain: string[]) {
  const graph = reach(chain);
  let folderChanges = 0;
  for (let i = 1; i < chain.length; i++) if (dirname(chain[i]!) !== dirname(chain[i - 1]!)) folderChanges++;
  const edges = new Set<string>();
  for (const [from, targets] of graph) for (const to of targets) if (dirname(from) !== dirname(to)) edges.add(`${dirname(from)} → ${dirname(to)}`);
  const twoWay = [...edges].map((e) => e.split(' → ') as [string, string]).filter(([a, b]) => a < b && edges.has(`${b} → ${a}`)).map(([a, b]) => `${a} ↔ ${b}`);
  return { files: graph.size, folderChanges, twoWay };
}

if (import.meta.main) {
  for (const [name, chain] of Object.entries(FLOWS)) {
    const missing = chain.filter((file) => !existsSync(join(root, file)));
    if (missing.length) throw new Error(`${name}: no such file ${missing.join(', ')}`);
    const { files, folderChanges, twoWay } = figures(chain);
    console.log(`${name}: ${files} files, ${folderChanges} folder changes along the chain, ${twoWay.length} two-way folder pairs${twoWay.length ? ` (${twoWay.join(', ')})` : ''}`);
  }
}
