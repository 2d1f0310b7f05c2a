import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Listening {
  /** `http://127.0.0.1:PORT` */
  url: string;
  /** Stops listening and drops open connections (kept-alive ones too). */
  close(): Promise<void>;
}

/** Starts `server` on loopback (a free port unless `port` is given). */
export async function listenOnLoopback(server: Server, port = 0): Promise<Listening> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
