/**
 * Open tabs learn of a registry change within a second: `GET /builds/events`
 * is a server-sent event stream that sends the registry's revision whenever
 * it changes (one watcher per server, a look at the revision in force every
 * half second however many tabs listen: the database's, never the origin's
 * file an origin writer could change). The shell makes the next
 * navigation a full page load when the revision differs from the one it
 * booted with. The same stream carries the areas' feature switches (`event: flags`, every switch
 * in force, sent when any changed): an open tab applies them at once, without a reload.
 */
import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { originBook, type RegistryBook, type ReleaseStorage } from '@shop/release';
import type { FlagShares } from '@shop/shared-kernel/rules';
import { ApiError } from '../infra/http/errors.ts';

export type RegistryEventsOptions = {
  storage: ReleaseStorage;
  /** The registry in force (the server's database); default: the origin's files (tests). */
  book?: RegistryBook;
  pollMs?: number;
  heartbeatMs?: number;
  maxClients?: number;
  /** The feature switches in force (the server's database); absent: none are sent. */
  flags?: () => Promise<FlagShares>;
};

export function registryEvents(app: FastifyInstance, options: RegistryEventsOptions): void {
  const book = options.book ?? originBook(options.storage);
  const pollMs = options.pollMs ?? 500;
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const maxClients = options.maxClients ?? 5_000;
  const clients = new Set<ServerResponse>();
  let revision: string | null = null;
  /** The switches last sent, as their event's text (compared as text: a change is any difference). */
  let flagsEvent: string | null = null;

  const send = (client: ServerResponse, text: string) => {
    if (!client.writableEnded) client.write(text);
  };
  const revisionEvent = () => `event: registry\ndata: ${JSON.stringify({ revision })}\n\n`;

  async function poll() {
    // A failure to look (the object store unreachable) is logged and changes nothing: tabs keep their revision.
    const current = (await book.exists()) ? (await book.read()).revision : null;
    if (current !== revision) {
      revision = current;
      for (const client of clients) send(client, revisionEvent());
    }
    if (!options.flags) return;
    const flags = `event: flags\ndata: ${JSON.stringify({ flags: await options.flags() })}\n\n`;
    if (flags === flagsEvent) return;
    flagsEvent = flags;
    for (const client of clients) send(client, flags);
  }

  let polling: Promise<void> = Promise.resolve();
  const watcher = setInterval(() => {
    polling = polling.then(poll).catch((error: unknown) => app.log.error({ err: error }, 'registry watch failed'));
  }, pollMs);
  const heartbeat = setInterval(() => {
    for (const client of clients) send(client, ': keep-alive\n\n');
  }, heartbeatMs);
  watcher.unref();
  heartbeat.unref();

  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    clearInterval(watcher);
    clearInterval(heartbeat);
    for (const client of clients) client.end();
    clients.clear();
  });

  app.get('/builds/events', async (request, reply) => {
    if (clients.size >= maxClients) {
      reply.header('retry-after', '30');
      throw new ApiError(503, 'internal', 'Server je vyťažený, skúste to o chvíľu.');
    }
    // A fresh look before the first event: the watcher's last one may be up to a poll behind a move,
    // and a tab that booted with the new revision would take the older one for a new build.
    polling = polling.then(poll).catch((error: unknown) => app.log.error({ err: error }, 'registry watch failed'));
    await polling;
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      // One that opens while the server stops takes its socket with it (no idle connection to wait for).
      connection: closing ? 'close' : 'keep-alive',
      'x-request-id': String(request.id),
      // Retry after 5 s if the stream breaks (a restart).
    });
    raw.write('retry: 5000\n\n');
    // A stream whose look at the registry was still running when the server began to stop ends at
    // once, as the others did: otherwise nothing ends it and the server cannot stop while the tab is open.
    if (closing) return void raw.end();
    raw.write(revisionEvent());
    if (flagsEvent) raw.write(flagsEvent);
    clients.add(raw);
    raw.on('close', () => clients.delete(raw));
  });
}
