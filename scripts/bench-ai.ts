// `npm run bench:ai`: what an AI-answers scan costs (issue 50, decisions 0302 and 0303). First, per
// plan at the engines' list prices (api/lib/provider-prices.ts, each price's page cited there) with
// the typical tokens of one answer (api/services/ai-visibility/job.ts TYPICAL_TOKENS): calls, tokens
// and dollars of one scan and of a month. Then one scan of each plan run for real against local
// stand-ins of the three engines (tests/helpers/ai-standin.ts; one 429 and one failed ask
// scripted), with its calls and tokens as the provider-call ledger recorded them and its wall
// time, and the first keyword's table. Prints figures; asserts nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AI_ENGINES, engineLine, rivalsLine, sourcesLine, uncertainty } from '../common/ai-visibility.ts';
import { AI_PLANS } from '../common/ai-plans.ts';
import { TIERS } from '../common/constants.ts';
import { createContext } from '../api/create-context.ts';
import { loadEnv } from '../api/env.ts';
import { withCallSubject } from '../api/lib/provider-calls.ts';
import { callUsd, LIST_PRICES, priceTable } from '../api/lib/provider-prices.ts';
import { subjectSpend } from '../api/lib/provider-spend.ts';
import { configuredEngines } from '../api/services/ai-visibility/engines.ts';
import { TYPICAL_TOKENS } from '../api/services/ai-visibility/job.ts';
import { scanKeyword } from '../api/services/ai-visibility/scan.ts';
import { startAiStandin } from '../tests/helpers/ai-standin.ts';

const SAMPLES = 5;
const SKU = { openai: 'openai.web_search', perplexity: 'perplexity.sonar', gemini: 'gemini.grounded' } as const;
const usd = (n: number) => `$${n.toFixed(4)}`;
const pad = (s: string | number, n: number) => String(s).padStart(n);

console.log('List prices (api/lib/provider-prices.ts):');
for (const e of AI_ENGINES) {
  const p = LIST_PRICES[SKU[e]]!;
  console.log(`  ${p.label}: $${p.usdPer1000} per 1,000 calls, $${p.usdPerMillionInput} / $${p.usdPerMillionOutput} per million input / output tokens; typical answer ${TYPICAL_TOKENS[e].input} in, ${TYPICAL_TOKENS[e].output} out`);
}
console.log(`\nPer plan at list prices, ${SAMPLES} asks per engine per keyword, 3 engines, no retries:`);
console.log(`  ${'plan'.padEnd(11)}${pad('keywords', 9)}${pad('calls', 7)}${pad('tokens in', 11)}${pad('tokens out', 12)}${pad('$ / scan', 10)}${pad('scans / month', 15)}${pad('$ / month', 11)}`);
for (const tier of TIERS) {
  const plan = AI_PLANS[tier];
  if (!plan.everyDays) {
    console.log(`  ${tier.padEnd(11)}${pad(0, 9)}  (no scan; the free report shows one line when a scan exists)`);
    continue;
  }
  const asks = plan.keywords * SAMPLES;
  const tin = asks * AI_ENGINES.reduce((s, e) => s + TYPICAL_TOKENS[e].input, 0);
  const tout = asks * AI_ENGINES.reduce((s, e) => s + TYPICAL_TOKENS[e].output, 0);
  const perScan = asks * AI_ENGINES.reduce((s, e) => s + callUsd(LIST_PRICES[SKU[e]], 1, TYPICAL_TOKENS[e].input, TYPICAL_TOKENS[e].output), 0);
  const perMonth = 30 / plan.everyDays;
  console.log(`  ${tier.padEnd(11)}${pad(plan.keywords, 9)}${pad(asks * 3, 7)}${pad(tin.toLocaleString('en-US'), 11)}${pad(tout.toLocaleString('en-US'), 12)}${pad(usd(perScan), 10)}${pad(perMonth.toFixed(1), 15)}${pad(`$${(perScan * perMonth).toFixed(2)}`, 11)}`);
}

const standin = await startAiStandin();
const dataDir = mkdtempSync(join(tmpdir(), 'localrank-bench-ai-'));
const ctx = await createContext(loadEnv({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', WORKER: 'off', ...standin.env }), { migrate: true });
const names = ['Brightwater Family Dental', 'Congress Avenue Dental', 'Lone Star Smiles', 'Barton Creek Dentistry', 'Zilker Dental Studio'];
standin.names = names;
const input = (keyword: string) => ({
  keyword,
  where: { city: 'Austin', region: 'TX', country: 'US', point: { latitude: 30.2713, longitude: -97.7426 } },
  own: { key: 'own', name: names[0]!, website: 'https://brightwaterdental.example' },
  competitors: names.slice(1).map((name, i) => ({ key: `c${i}`, name, website: null })),
});

console.log(`\nOne scan per plan against local stand-ins (ledger counts; stand-in answers are short, so their tokens are not an answer's):`);
let firstTable: string[] = [];
for (const tier of TIERS) {
  const plan = AI_PLANS[tier];
  if (!plan.everyDays) continue;
  standin.reset();
  // One 429 (retried into an answer) and one ask that fails twice, on OpenAI.
  standin.script.openai = [{ status: 429 }, { text: '1. **Brightwater Dental** - gentle care\n2. **Lone Star Smiles**', sources: ['yelp.com', 'brightwaterdental.example'] }, { text: 'Try **Zilker Dental Studio**.', sources: ['healthgrades.com'] }, { status: 500 }, { status: 503 }];
  const keywords = ['dentist', 'teeth whitening', 'emergency dentist'].slice(0, plan.keywords);
  const { engines, notAsked } = configuredEngines(ctx.env);
  const started = performance.now();
  const scans = [];
  for (const k of keywords) scans.push(await withCallSubject({ type: 'bench', id: `bench-${tier}` }, () => scanKeyword(ctx, input(k), { engines, notAsked, samples: SAMPLES, prices: priceTable() })));
  const ms = performance.now() - started;
  const spend = await subjectSpend(ctx.db, priceTable(), `bench-${tier}`);
  const tokens = scans.reduce((t, s) => ({ in: t.in + s.cost.inputTokens, out: t.out + s.cost.outputTokens }), { in: 0, out: 0 });
  console.log(`  ${tier}: ${keywords.length} keyword(s), ${spend.calls} calls (${spend.skus.map((s) => `${s.calls} ${s.sku}`).join(', ')}), tokens ${tokens.in} in / ${tokens.out} out, ${usd(spend.usd)} at list prices, ${Math.round(ms)} ms`);
  if (!firstTable.length) {
    const s = scans[0]!;
    firstTable = [`"${s.question}" (${s.location}):`, ...s.engines.flatMap((e) => [`  ${engineLine(e)}`, ...(uncertainty(e.answered) ? [`    ${uncertainty(e.answered)}`] : [])]), `  ${rivalsLine(s) ?? 'No competitor named'}`, `  ${sourcesLine(s) ?? 'No source cited'}`];
  }
}
console.log('\nThe first scan\'s table:');
for (const line of firstTable) console.log(`  ${line}`);

await standin.close();
ctx.db.$client.close();
rmSync(dataDir, { recursive: true, force: true });
