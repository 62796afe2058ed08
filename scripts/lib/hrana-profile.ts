// `node --import ./scripts/lib/hrana-profile.ts …`: counts what a process asks a libSQL server over
// HTTP (hrana pipeline requests: round trips, statements, time waited, busy answers, bytes each way), by the first
// words of each request's first statement, and writes the totals so far as JSON to
// $HRANA_PROFILE_FILE on SIGUSR2. For `npm run bench:scale -- --profile`; the product never loads it.
import { writeFileSync } from 'node:fs';

type Kind = { requests: number; statements: number; ms: number; busy: number; slowest: number; bytesOut: number; bytesIn: number };
const kinds = new Map<string, Kind>();
const original = globalThis.fetch;
/** Statements the client stored on the server (store_sql) and names by number in its batches. */
const stored = new Map<number, string>();

const kindOf = (sql: string) => sql.trim().replace(/\s+/g, ' ').replace(/"/g, '').split(' ').slice(0, 4).join(' ').toLowerCase();

globalThis.fetch = async (input, init) => {
  const request = input instanceof Request ? input : new Request(input, init);
  if (!/\/v[23]\/pipeline$/.test(new URL(request.url).pathname)) return original(input, init);
  type Stmt = { sql?: string; sql_id?: number };
  const sent = await request.clone().text();
  const body = JSON.parse(sent) as { requests: Array<{ type: string; sql?: string; sql_id?: number; stmt?: Stmt; batch?: { steps: Array<{ stmt: Stmt }> } }> };
  for (const r of body.requests) if (r.type === 'store_sql' && r.sql !== undefined) stored.set(r.sql_id!, r.sql);
  const text = (stmt: Stmt | undefined) => stmt?.sql ?? stored.get(stmt?.sql_id ?? -1) ?? `(stored statement ${stmt?.sql_id})`;
  const sqls = body.requests.flatMap((r) => (r.type === 'execute' ? [text(r.stmt)] : r.type === 'batch' ? r.batch!.steps.map((s) => text(s.stmt)) : []));
  const started = performance.now();
  const answer = await original(request);
  const answered = await answer.clone().text();
  const ms = performance.now() - started;
  const real = sqls.filter((s) => !/^(BEGIN|COMMIT|ROLLBACK)\b/i.test(s.trim()));
  const kind = `${sqls.length > 1 ? 'batch: ' : ''}${kindOf(real[0] ?? sqls[0] ?? 'close')}`;
  const k = kinds.get(kind) ?? { requests: 0, statements: 0, ms: 0, busy: 0, slowest: 0, bytesOut: 0, bytesIn: 0 };
  k.bytesOut += sent.length;
  k.bytesIn += answered.length;
  k.requests++;
  k.statements += sqls.length;
  k.ms += ms;
  k.slowest = Math.max(k.slowest, ms);
  if (/SQLITE_BUSY|database is locked/i.test(answered)) k.busy++;
  kinds.set(kind, k);
  return answer;
};

process.on('SIGUSR2', () => {
  if (process.env.HRANA_PROFILE_FILE) writeFileSync(process.env.HRANA_PROFILE_FILE, JSON.stringify(Object.fromEntries(kinds)));
});
