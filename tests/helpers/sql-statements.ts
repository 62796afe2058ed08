// Every distinct SQL statement the integration tests' contexts send on the file pass, kept for the
// sqld pass's statement check (tests/integration/sqld-statements.test.ts): each is prepared on a
// libSQL server, so a statement only a file accepts fails there, whichever file's test sent it,
// without running every file twice. One file per test process, appended as a statement is first
// seen (a process may be killed by its pool without notice).
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { InArgs, InStatement, Transaction } from '@libsql/client';
import type { Db } from '../../db/client.ts';

export const STATEMENTS_DIR = resolve(import.meta.dirname, '../../test-results/sql-statements');

export interface RecordedStatement {
  sql: string;
  /** The arguments of its first call: a server prepares a statement only with every one bound. */
  args: InArgs;
}

const seen = new Set<string>();

function record(statement: InStatement | [string, InArgs?], args?: InArgs) {
  const [sql, bound] = typeof statement === 'string' ? [statement, args] : Array.isArray(statement) ? statement : [statement.sql, statement.args];
  if (seen.has(sql)) return;
  seen.add(sql);
  mkdirSync(STATEMENTS_DIR, { recursive: true });
  appendFileSync(join(STATEMENTS_DIR, `${process.pid}.jsonl`), `${JSON.stringify({ sql, args: bound ?? [] }, (_, v) => (typeof v === 'bigint' ? Number(v) : v instanceof ArrayBuffer || ArrayBuffer.isView(v) ? [] : v))}\n`);
}

/** Records what `db` sends: its client's calls, in and out of transactions, and its prepared reads. */
export function recordStatements(db: Db) {
  const client = db.$client;
  const execute = client.execute.bind(client) as (statement: InStatement, args?: InArgs) => ReturnType<typeof client.execute>;
  const batch = client.batch.bind(client);
  const transaction = client.transaction.bind(client);
  client.execute = ((statement: InStatement, args?: InArgs) => (record(statement, args), execute(statement, args))) as typeof client.execute;
  client.batch = ((statements, mode) => (statements.forEach((s) => record(s)), batch(statements, mode))) as typeof client.batch;
  client.transaction = (async (mode) => {
    const tx: Transaction = await transaction(mode);
    const txExecute = tx.execute.bind(tx);
    const txBatch = tx.batch.bind(tx);
    tx.execute = ((statement: InStatement) => (record(statement), txExecute(statement))) as typeof tx.execute;
    tx.batch = ((statements: InStatement[]) => (statements.forEach((s) => record(s)), txBatch(statements))) as typeof tx.batch;
    return tx;
  }) as typeof client.transaction;
  const read = db.$read;
  db.$read = (sql, args) => (record(sql, args), read(sql, args));
}

/** Every statement recorded since the run began, once each. */
export function recordedStatements(): RecordedStatement[] {
  if (!existsSync(STATEMENTS_DIR)) return [];
  const files = readdirSync(STATEMENTS_DIR).filter((f) => f.endsWith('.jsonl'));
  const bySql = new Map<string, RecordedStatement>();
  for (const file of files)
    for (const line of readFileSync(join(STATEMENTS_DIR, file), 'utf8').split('\n'))
      if (line) {
        const statement = JSON.parse(line) as RecordedStatement;
        if (!bySql.has(statement.sql)) bySql.set(statement.sql, statement);
      }
  return [...bySql.values()];
}

/** A new run of the file pass starts a new record. */
export const clearRecordedStatements = () => rmSync(STATEMENTS_DIR, { recursive: true, force: true });
