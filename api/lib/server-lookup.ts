// A `dns.lookup` that asks the named DNS servers (DNS_SERVERS) instead of the system's resolver
// (/etc/hosts, nsswitch): what a webhook's name resolves to is then what those servers say, at
// the check when the endpoint is added and at every delivery alike (decision 0241).
import { Resolver, type LookupAddress, type lookup } from 'node:dns';

const LOOKUP_TIMEOUT_MS = 5000;

export function serverLookup(servers: string[]): typeof lookup {
  const resolver = new Resolver({ timeout: LOOKUP_TIMEOUT_MS, tries: 2 });
  resolver.setServers(servers);
  const ask = (family: 4 | 6, hostname: string) =>
    new Promise<LookupAddress[]>((resolve, reject) =>
      (family === 4 ? resolver.resolve4.bind(resolver) : resolver.resolve6.bind(resolver))(hostname, (error, addresses) => (error ? reject(error) : resolve(addresses.map((address) => ({ address, family }))))),
    );
  const found = (hostname: string, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => {
    void Promise.allSettled([ask(4, hostname), ask(6, hostname)]).then(([v4, v6]) => {
      const addresses = [...(v4.status === 'fulfilled' ? v4.value : []), ...(v6.status === 'fulfilled' ? v6.value : [])];
      if (addresses.length) return callback(null, addresses);
      const failed = [v4, v6].find((r): r is PromiseRejectedResult => r.status === 'rejected' && (r.reason as NodeJS.ErrnoException).code !== 'ENODATA');
      const error: NodeJS.ErrnoException = failed ? (failed.reason as Error) : Object.assign(new Error(`queryA ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      callback(error, []);
    });
  };
  // dns.lookup's shapes: (hostname, callback) or (hostname, options, callback); one address or all.
  return ((hostname: string, options: unknown, callback?: unknown) => {
    const cb = (typeof options === 'function' ? options : callback) as (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
    const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all;
    found(hostname, (error, addresses) => {
      if (error) return cb(error, all ? [] : '', 0);
      if (all) return cb(null, addresses);
      cb(null, addresses[0]!.address, addresses[0]!.family);
    });
  }) as typeof lookup;
}
