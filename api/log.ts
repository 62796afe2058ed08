// One-line JSON logs: easy to read in a terminal, easy to ship to a log store.
import { DrizzleQueryError } from 'drizzle-orm/errors';

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
export type LogLevel = keyof typeof LEVELS;
export type Logger = Record<Exclude<LogLevel, 'silent'>, (msg: string, fields?: Record<string, unknown>) => void>;

export function createLogger(level: LogLevel = 'info'): Logger {
  const emit = (at: Exclude<LogLevel, 'silent'>) => (msg: string, fields: Record<string, unknown> = {}) => {
    if (LEVELS[at] < LEVELS[level]) return;
    const line = JSON.stringify({ time: new Date().toISOString(), level: at, msg, ...fields });
    (at === 'error' || at === 'warn' ? process.stderr : process.stdout).write(line + '\n');
  };
  return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error') };
}

/**
 * An error as a log line's text: its stack and its cause, but not the values of a failed query
 * (drizzle lists them after "params:"; they can be tokens, e-mail addresses, password hashes).
 */
export function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause ? `\ncaused by: ${errorText(error.cause)}` : '';
  if (error instanceof DrizzleQueryError) {
    const frames = (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
    return [`${error.name}: Failed query: ${error.query}`, ...frames].join('\n') + cause;
  }
  return (error.stack ?? `${error.name}: ${error.message}`) + cause;
}

/** The message alone, on the same terms: a failed query's SQL and its cause, not its values. */
export function errorMessage(error: unknown): string {
  if (error instanceof DrizzleQueryError) return `Failed query: ${error.query} (${errorMessage(error.cause)})`;
  return error instanceof Error ? error.message : String(error);
}
