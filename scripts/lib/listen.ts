// Listening on the configured address, with the reason in words when it cannot (a busy port
// is the usual one), so `npm start` ends with one line instead of Node's stack trace.
import type { Server } from 'node:net';

/** Listens on host:port; resolves with the bound port, or rejects with a message naming the setting. */
export function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((bound, fail) => {
    const onError = (error: NodeJS.ErrnoException) => {
      const where = `${host}:${port}`;
      const reasons: Record<string, string> = {
        EADDRINUSE: `${where} is already in use: stop the process that holds it, or set PORT to another port`,
        EACCES: `no permission to listen on ${where}: set PORT to a port above 1023`,
        EADDRNOTAVAIL: `${host} is not an address of this machine: set HOST (127.0.0.1, or 0.0.0.0 for every interface)`,
      };
      fail(new Error(reasons[error.code ?? ''] ?? `cannot listen on ${where}: ${error.message}`));
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      const address = server.address();
      bound(typeof address === 'object' && address ? address.port : port);
    });
  });
}
