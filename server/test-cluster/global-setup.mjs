// Starts the shop as it runs at scale (tools/scripts/topology.mjs): two workers and two web servers
// behind nginx, on a throwaway PostgreSQL and Redis, with a fresh release origin and an SMTP sink
// that keeps every message it receives; everything is stopped and removed afterwards.
// CLUSTER_ORIGIN=s3: the release origin (and the file store) in a bucket of a local S3 server
// (s3rver), as at scale; `npm test` runs the multi-server tests once each way.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { spawnSync } from 'node:child_process';
import { startClusterShop } from '../../tools/scripts/cluster-shop.mjs';
import { S3RVER_CREDENTIALS, startS3Server } from '@shop/release/testing';
import { signInWithSecondFactor } from '../test/helpers/operator-session.ts';

/** An SMTP server on loopback that writes each message it accepts to its own file. */
async function smtpSink(dir) {
  mkdirSync(dir, { recursive: true });
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, done) {
      const chunks = [];
      stream.on('data', (chunk) => chunks.push(chunk));
      stream.on('end', () => {
        received += 1;
        writeFileSync(join(dir, `${String(received).padStart(6, '0')}.eml`), Buffer.concat(chunks));
        done();
      });
    },
  });
  // A client that goes away mid-message (a worker killed with SIGKILL by the supervision tests) resets
  // its connection: that is its message lost, which the outbox sends again, not this process's end.
  server.on('error', (error) => process.stderr.write(`[smtp sink] ${error.message}\n`));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `smtp://127.0.0.1:${server.server.address().port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}

export default async function setup(project) {
  const lines = [];
  // The servers' output, for failure-log.mjs (the reporter prints their warnings when the run failed).
  globalThis.shopClusterLog = lines;
  const dataDir = mkdtempSync(join(tmpdir(), 'shop-cluster-'));
  const cluster = await startClusterShop({
    dataDir,
    servers: 2,
    workers: 2,
    async prepare(cleanups) {
      const mailDir = join(dataDir, 'smtp-received');
      const smtp = await smtpSink(mailDir);
      cleanups.push(() => smtp.close());
      if (process.env.CLUSTER_ORIGIN !== 's3') return { env: { SMTP_URL: smtp.url } };
      // With S3 the servers read the same bucket (credentials as the SDK's default chain reads them).
      const s3 = await startS3Server({ conditionalWrites: true });
      cleanups.push(() => s3.stop());
      return {
        env: { SMTP_URL: smtp.url },
        releaseEnv: {
          S3_BUCKET: s3.bucket,
          S3_ENDPOINT: s3.endpoint,
          S3_PREFIX: 'cluster',
          AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
          AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
        },
      };
    },
    env: {
      // Every test request comes from loopback: the order limits would stop the 100 concurrent orders.
      CHECKOUT_RATE_LIMIT_ALLOWLIST: '127.0.0.1',
      REGISTRY_POLL_MS: '60000',
    },
    output: (line) => lines.push(line),
  });
  const { shop } = cluster;
  // nginx's logs, for failure-log.mjs (read before the teardown removes its directory).
  globalThis.shopClusterNginxDir = shop.nginxDir;
  // An operator with a second factor, signed in on the operator origin through nginx (the races move orders with it).
  const operator = { name: 'klaster-dispecer', password: 'heslo-dispečera-klastra' };
  const created = spawnSync(process.execPath, ['dist/release/credentials-cli.js', 'operator-create', operator.name], {
    cwd: join(import.meta.dirname, '..'),
    env: { ...process.env, ...cluster.releaseEnv, DATABASE_URL: cluster.databaseUrl, OPERATOR_PASSWORD: operator.password },
    encoding: 'utf8',
  });
  if (created.status !== 0) throw new Error(`operator-create failed: ${created.stderr}`);
  const session = await signInWithSecondFactor(shop.opsUrl, operator.name, operator.password, { 'x-forwarded-for': '203.0.113.250' });
  if (process.env.CLUSTER_TEST_LOG) {
    // nginx's own log goes with its directory on stop: read it just before.
    cluster.cleanups.push(() => process.stdout.write(lines.join('') + readFileSync(join(shop.nginxDir, 'error.log'), 'utf8')));
  }
  project.provide('cluster', {
    url: shop.url,
    web: shop.web.map((s) => s.url),
    workers: shop.workers.map((s) => s.url),
    opsUrl: shop.opsUrl,
    webOps: shop.web.map((s) => s.opsUrl),
    operator: { ...operator, cookie: session.cookie, secret: session.secret },
    databaseUrl: cluster.databaseUrl,
    dataDir,
    mailDir: join(dataDir, 'smtp-received'),
    metricsToken: cluster.metricsToken,
    releaseEnv: cluster.releaseEnv,
  });
  project.provide('clusterRedisUrl', cluster.redisUrl);
  // Where browsers load the areas from (nginx's second port, the cluster's CDN), and nginx's directory (its caches).
  project.provide('clusterEdge', { assetUrl: shop.assetUrl, nginxDir: shop.nginxDir });
  return cluster.stop;
}
