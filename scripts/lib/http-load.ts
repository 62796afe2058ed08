// The load generator the read benchmarks share (bench:dashboard, bench:api): GET requests over
// keep-alive connections to a bench server, counted by status, at a fixed rate (open loop: latency
// counts from the scheduled send time, so no coordinated omission) or at saturation (closed loop,
// 32 in flight), with the server's CPU per request read from /proc.
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';

export const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
export const ms = (v: number) => `${v.toFixed(2)} ms`;

export function httpLoad({ port, pid, rate, seconds, labelWidth = 44 }: { port: number; pid: number; rate: number; seconds: number; labelWidth?: number }) {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const statuses = new Map<string, number>();

  /** One GET; resolves with the answer's size in bytes. `kind` names it in the status counts. */
  function get(kind: string, path: string, headers: Record<string, string> = {}): Promise<number> {
    return new Promise((done, fail) => {
      const req = request({ host: '127.0.0.1', port, path, agent, headers }, (res) => {
        const key = `${kind} ${res.statusCode}`;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
        let bytes = 0;
        res.on('data', (c: Buffer) => (bytes += c.length));
        res.on('end', () => done(bytes));
      });
      req.on('error', fail);
      req.end();
    });
  }

  // The server's CPU time (user + system, ms): a figure that holds when other processes share the
  // cores, unlike latency. Null where /proc is missing.
  function serverCpuMs(): number | null {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in 1/100 s ticks
    } catch {
      return null;
    }
  }

  function report(label: string, latencies: number[], elapsedMs: number) {
    const sorted = [...latencies].sort((a, b) => a - b);
    console.log(
      `${label.padEnd(labelWidth)} ${String(sorted.length).padStart(6)} req in ${(elapsedMs / 1000).toFixed(1)} s = ${((sorted.length / elapsedMs) * 1000).toFixed(0).padStart(5)} req/s · ` +
        `p50 ${ms(pct(sorted, 50))} · p90 ${ms(pct(sorted, 90))} · p99 ${ms(pct(sorted, 99))} · max ${ms(sorted[sorted.length - 1]!)}`,
    );
    return sorted;
  }

  return {
    get,
    statuses,
    loadAverage: () => `load average before the run: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')} (other processes on these cores inflate latency; CPU per request does not depend on them)`,
    /** `rate` requests a second for `seconds`; the sorted latencies and the server's CPU per request. */
    async fixedRate(label: string, send: () => Promise<unknown>) {
      const total = rate * seconds;
      const cpu0 = serverCpuMs();
      const latencies: number[] = [];
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: total }, (_, i) => {
          const due = t0 + (i * 1000) / rate;
          return new Promise<void>((done, fail) => {
            setTimeout(() => {
              // From the scheduled time, or from the send when a timer fired early.
              const from = Math.min(due, performance.now());
              send().then(() => (latencies.push(performance.now() - from), done()), fail);
            }, Math.max(0, due - performance.now()));
          });
        }),
      );
      const sorted = report(`${label} at ${rate}/s`, latencies, performance.now() - t0);
      const cpu1 = serverCpuMs();
      const cpuPerRequest = cpu0 !== null && cpu1 !== null ? (cpu1 - cpu0) / total : null;
      if (cpuPerRequest !== null) console.log(`${''.padEnd(labelWidth)} server CPU ${cpuPerRequest.toFixed(3)} ms per request (${(((cpu1! - cpu0!) / (seconds * 1000)) * 100).toFixed(0)}% of one core)`);
      return { sorted, cpuPerRequest };
    },
    /** 32 requests in flight for 5 s: the most requests a second it sustains. */
    async saturation(label: string, send: () => Promise<unknown>) {
      const latencies: number[] = [];
      const t0 = performance.now();
      const until = t0 + 5000;
      await Promise.all(
        Array.from({ length: 32 }, async () => {
          while (performance.now() < until) {
            const start = performance.now();
            await send();
            latencies.push(performance.now() - start);
          }
        }),
      );
      report(`${label}, 32 in flight`, latencies, performance.now() - t0);
    },
    printStatuses: () => console.log(`statuses: ${[...statuses].map(([s, n]) => `${s}×${n}`).join(', ')}`),
    close: () => agent.destroy(),
  };
}
