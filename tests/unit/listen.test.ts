import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { listen } from '../../scripts/lib/listen.ts';

describe('listen', () => {
  it('resolves with the bound port', async () => {
    const server = createServer();
    const port = await listen(server, 0, '127.0.0.1');
    expect(port).toBeGreaterThan(0);
    server.close();
  });

  it('names a busy port and the setting to change, instead of throwing EADDRINUSE', async () => {
    const holder = createServer();
    const port = await listen(holder, 0, '127.0.0.1');
    await expect(listen(createServer(), port, '127.0.0.1')).rejects.toThrow(
      `127.0.0.1:${port} is already in use: stop the process that holds it, or set PORT to another port`,
    );
    holder.close();
  });

  it('names HOST when it is not an address of this machine', async () => {
    await expect(listen(createServer(), 0, '192.0.2.1')).rejects.toThrow('192.0.2.1 is not an address of this machine: set HOST');
  });
});
