/**
 * The background work a process runs for its role, started once it is built (and, standing by, once
 * its supervisor says to take over): the outbox's jobs (started with the API), the canary watch,
 * backups, the integrity watch and the release tool's move requests. One process of a cluster runs
 * them (ROLE=all alone, or the worker beside web servers): one watcher decides, not every server.
 * A standby waits for its supervisor's word first (standbyChannel, below).
 */
import type { FastifyInstance } from 'fastify';
import { scheduleBackups, type ServerBackupOptions } from './backup/server-backups.ts';
import type { ServerRole } from './config.ts';
import type { CanaryJobs } from './domains/releases/canary-jobs.ts';
import type { ReleaseJobs } from './domains/releases/release-jobs.ts';
import type { ReleasedFileCheck } from './web/verified-files.ts';
import type { OpenedShop } from './shop-open.ts';
import type { WorkLines } from './shop-start-lines.ts';

export type Closable = { close(): Promise<unknown> };

export type WorkOptions = {
  opened: OpenedShop;
  api: FastifyInstance;
  jobs: ReleaseJobs;
  canaries: CanaryJobs;
  standby: StandbyChannel | null;
  /** The servers beside the API a standby waits for (the static origin, the operator origin). */
  beside: (FastifyInstance | null)[];
  /** The released files this process sends (its integrity watch tells it what it read on this disk). */
  releasedFiles: ReleasedFileCheck;
};

/** What the work said of itself, and what the process's stop closes (by name: a stop that waits says for what). */
export type StartedWork = WorkLines & { running: [string, Closable | null][] };

/** What a backup copies: the database, the file store, the secrets, and the origin when it is on this disk. */
function backupSources({ settings, database, files, releases }: OpenedShop): ServerBackupOptions {
  const { dataDir, databaseUrl, originDir } = settings.server;
  return {
    db: database.db,
    dialect: database.dialect,
    dataDir,
    ...(databaseUrl ? { databaseUrl } : {}),
    files,
    originDir: releases.storage.local ? originDir : null,
    env: settings.env,
  };
}

export function startWork(role: ServerRole, options: WorkOptions): Promise<StartedWork> {
  return role === 'worker' ? startWorkerWork(options) : startShopWork(role, options);
}

/** ROLE=worker: all of it, the integrity watch on its schedule; a standby's outbox starts once it takes over. */
async function startWorkerWork({ opened, api, jobs, canaries, standby }: WorkOptions): Promise<StartedWork> {
  if (standby) {
    await standby.standBy(api, null);
    await api.outbox.start();
  }
  const canaryWatch = canaries.start(api.log);
  const backups = scheduleBackups(api.log, backupSources(opened));
  jobs.startIntegrityWatch(true);
  await jobs.moveRequests.start();
  return {
    canaries: canaries.description,
    backups: backups.description,
    running: [
      ['the canary watch', canaryWatch],
      ['the backups', backups],
    ],
  };
}

/**
 * ROLE=all: all of it. ROLE=web: none of it but an integrity watch that checks only when a browser
 * reports a failed load (the worker keeps the schedule). A standby starts no watch.
 */
async function startShopWork(role: 'all' | 'web', { opened, api, jobs, canaries, standby, beside, releasedFiles }: WorkOptions) {
  // Canaries whose client error rate or field INP/LCP runs worse than the stable version's are aborted
  // without waiting for anyone (and healthy ones promoted with CANARY_AUTO_PROMOTE_MS).
  const canaryWatch = role === 'all' ? canaries.start(api.log) : null;
  if (standby) await standby.standBy(api, ...beside);
  // Backups, like the outbox's jobs, are taken by a process that runs background work (and not while standing by).
  const backups = role === 'all' ? scheduleBackups(api.log, backupSources(opened)) : null;
  if (!standby) jobs.startIntegrityWatch(role === 'all', releasedFiles);
  if (!standby && role === 'all') await jobs.moveRequests.start();
  return {
    canaries: role === 'all' ? canaries.description : null,
    backups: backups?.description ?? null,
    running: [
      ['the canary watch', canaryWatch],
      ['the backups', backups],
    ],
  } satisfies StartedWork;
}

/**
 * A standby (STANDBY=1, started by the cluster's supervisor with an IPC channel) is ready in every way
 * but listening: its routes compiled, the database connected, the catalog loading. It tells its
 * supervisor so, and listens once told to (the ports of the server it replaces are free by then).
 * Told before it is ready, it listens as soon as it is. A supervisor that goes away before telling it
 * ends it. The message is awaited from the process's first moment, so none is missed.
 */
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
