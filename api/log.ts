// One-line JSON logs: easy to read in a terminal, easy to ship to a log store.
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
