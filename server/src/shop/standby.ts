/**
 * A standby (STANDBY=1, started by the cluster's supervisor with an IPC channel) is ready in every way
 * but listening: its routes compiled, the database connected, the catalogue loading. It tells its
 * supervisor so, and listens once told to (the ports of the server it replaces are free by then).
 * Told before it is ready, it listens as soon as it is. A supervisor that goes away before telling it
 * ends it. The message is awaited from the process's first moment, so none is missed.
 */
import type { FastifyInstance } from 'fastify';

export type StandbyChannel = {
  /** Waits until every server given is ready, says so, then until the supervisor says to take over. */
  standBy(...servers: (FastifyInstance | null)[]): Promise<void>;
};

export function standbyChannel(log: (message: string) => void): StandbyChannel {
  if (!process.send) throw new Error('STANDBY=1 needs an IPC channel to its supervisor');
  let told = false;
  const activated = new Promise<void>((resolve) => {
    process.on('message', (message) => {
      if (message !== 'activate') return;
      told = true;
      resolve();
    });
  });
  process.once('disconnect', () => {
    if (!told) process.exit(0);
  });
  return {
    async standBy(...servers) {
      await Promise.all(servers.map((server) => server?.ready()));
      if (process.connected && !told) {
        process.send!('standing-by');
        log('standing by: ready to take over when told');
      }
      await activated;
    },
  };
}
