// `npm run report -- --company … --address … --city … --state … --zip … --website … [--email …] [--name …]`
// Runs the report pipeline once, here, and prints the scores and where the files went.
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { createContext } from '../api/create-context.ts';
import { closeMailer, outboxDir } from '../api/email/mailer.ts';
import { loadEnvOrExit } from '../api/env.ts';
import { productionDeps } from '../api/jobs/production.ts';
import { analyseBusiness } from '../api/report/analyse.ts';
import { PermanentJobError, RetryLaterError } from '../api/jobs/errors.ts';
import { reportLines } from '../api/report/render/summary.ts';
import { ProviderStageError } from '../api/report/analysis/providers/types.ts';
import { runReportOnce } from '../api/report/run-once.ts';
import { pricesFor } from '../api/lib/provider-prices.ts';
import { costLine, subjectSpend } from '../api/lib/provider-spend.ts';
import { checkReportRequest } from '../common/schemas/report-request-rules.ts';

const usage = 'usage: npm run report -- --company NAME --address STREET --city CITY --state TX --zip 78701 --website https://… [--email you@example.com] [--name "Full Name"] [--sites-on-loopback]';

let args;
try {
  args = parseArgs({
    options: {
      company: { type: 'string' },
      address: { type: 'string' },
      city: { type: 'string' },
      state: { type: 'string' },
      zip: { type: 'string' },
      website: { type: 'string' },
      email: { type: 'string' },
      name: { type: 'string' },
      'sites-on-loopback': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  }).values;
} catch (error) {
  console.error(`${(error as Error).message}\n${usage}`);
  process.exit(2);
}
if (args.help) {
  console.log(`${usage}

Runs the report pipeline once, in this process, as the free report form does, and prints the
scores, the rank, the competitors and where the PDF, the score card and the e-mail went.

  --company NAME     the business's name (at least 2 characters)
  --address STREET   its street address
  --city CITY        its city
  --state TX         its US state, two letters
  --zip 78701        its ZIP code (12345 or 12345-6789)
  --website URL      its website, with http:// or https://
  --email ADDRESS    where the report e-mail goes (default: OPERATOR_EMAIL)
  --name "NAME"      the full name the e-mail greets (default: "LocalRank operator")
  --sites-on-loopback  let the website fetcher read sites on 127.0.0.1: local stand-ins such as
                     tests/helpers/site-standins.ts, their ports in SITE_FETCH_PORTS (the
                     product itself never reads loopback)
  -h, --help         this text

Settings are read as \`npm start\` reads them: PLACES_PROVIDER picks the data source (sample data
unless set), SMTP_URL the mail server (else the e-mail is written to DATA_DIR/outbox), and the
online report's link uses PUBLIC_BASE_URL (else http://localhost:PORT, where \`npm start\` serves).`);
  process.exit(0);
}
const required = ['company', 'address', 'city', 'state', 'zip', 'website'] as const;
const missing = required.filter((k) => !args[k]?.trim());
if (missing.length > 0) {
  console.error(`missing ${missing.map((m) => `--${m}`).join(', ')}\n${usage}`);
  process.exit(2);
}

const env = loadEnvOrExit();
const input = {
  fullName: args.name?.trim() || 'LocalRank operator',
  email: args.email?.trim() || env.OPERATOR_EMAIL,
  company: args.company!.trim(),
  website: args.website!.trim(),
  address: args.address!.trim(),
  city: args.city!.trim(),
  state: args.state!.trim().toUpperCase(),
  zip: args.zip!.trim(),
};
// The same rules, and messages, as the form and POST /api/submit-request.
const invalid = Object.entries(checkReportRequest({ ...input, role: 'other' }));
if (invalid.length > 0) {
  const flag = (field: string) => (field === 'fullName' ? 'name' : field);
  for (const [field, message] of invalid) console.error(`--${flag(field)}: ${message}`);
  console.error(usage);
  process.exit(2);
}

// Local website stand-ins are on loopback, which the fetcher refuses unless told (this run only).
const analyse: typeof productionDeps.analyse = args['sites-on-loopback'] ? (ctx, input) => analyseBusiness(ctx, input, { fetch: { allowLoopback: true } }) : productionDeps.analyse;

const ctx = await createContext(env, { migrate: true });
const timings: Record<string, number> = {};
try {
  const result = await runReportOnce(ctx, input, { analyse, onStage: (stage, ms) => (timings[stage] = ms) });
  console.log(`\n${reportLines(result.data).join('\n')}`);
  console.log(`\nPDF        ${resolve(result.pdf)}`);
  console.log(`Score card ${resolve(result.png)}`);
  console.log(`Online     ${result.url}`);
  console.log(`E-mail     ${result.emailSent ? (env.SMTP_URL ? 'sent via SMTP' : `written to ${resolve(outboxDir(ctx))}`) : 'not sent'}`);
  console.log(`Stages     ${Object.entries(timings).map(([k, v]) => `${k} ${v.toFixed(0)} ms`).join(' · ')}`);
  console.log(costLine(await subjectSpend(ctx.db, pricesFor(env), result.requestId)));
} catch (error) {
  // A request the pipeline cannot serve (an address that cannot be located), or a provider call
  // the report cannot stand without that failed (the queue would retry it): say what, one line.
  if (error instanceof ProviderStageError) console.error(`No report: ${error.message}; the queue retries such a failure with back-off before the visitor is told.`);
  else if (error instanceof PermanentJobError) console.error(`No report: ${error.message}`);
  else if (error instanceof RetryLaterError) console.error(`No report now: ${error.message} (the queue would keep it and make it then).`);
  else throw error;
  process.exitCode = 1;
} finally {
  closeMailer(ctx);
  ctx.db.$client.close();
}
