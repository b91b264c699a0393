import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { findFreePort } from '../../../main/infra/port-probe.js';

describe('findFreePort', () => {
  it('gives a bindable port below the kernel ephemeral range, so port-0 servers and outgoing connections never take it', async () => {
    for (let i = 0; i < 20; i++) {
      const port = await findFreePort();
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(32_768);
      const server = net.createServer();
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', resolve);
      });
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
