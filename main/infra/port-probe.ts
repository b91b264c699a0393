import net from 'node:net';

/**
 * True when something accepts TCP connections on host:port. Checked before spawning a server
 * so a foreign listener is reported as "port in use" instead of answering our health probe.
 */
export function isPortInUse(port: number, host = '127.0.0.1', timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    const done = (inUse: boolean) => {
      socket.destroy();
      resolve(inUse);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * A port that was free a moment ago (tests, the managed binary's port). It is taken below the
 * kernel's ephemeral range (Linux: 32768–60999), where nothing bound to port 0 and no outgoing
 * connection is ever placed: a server that is stopped and started again on the port it was given
 * (the proxy between restarts) cannot find it taken by a stranger that happened to be handed it in
 * between. Falls back to a kernel-chosen port when no candidate is free.
 */
export async function findFreePort(host = '127.0.0.1'): Promise<number> {
  for (let tries = 0; tries < 40; tries++) {
    const port = LOW_PORTS.from + Math.floor(Math.random() * (LOW_PORTS.to - LOW_PORTS.from + 1));
    if (await canListen(port, host)) return port;
  }
  return listenOnce(0, host);
}

/** Below the ephemeral range and above most well-known services. */
const LOW_PORTS = { from: 10_000, to: 32_767 } as const;

function canListen(port: number, host: string): Promise<boolean> {
  return listenOnce(port, host).then(
    () => true,
    () => false,
  );
}

function listenOnce(port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(port, host, () => {
      const { port: bound } = server.address() as net.AddressInfo;
      server.close(() => resolve(bound));
    });
  });
}
