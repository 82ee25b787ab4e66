// The shop at scale on one machine: separate workers, N web servers and nginx in front, all on
// PostgreSQL and Redis that the caller provides (`npm run start:cluster` and the multi-server tests
// both start it from here, so what is tested is what runs).
//
//   const shop = await startTopology({ dataDir, databaseUrl, redisUrl, servers: 2, workers: 1 });
//   shop.url, shop.assetUrl, shop.opsUrl, shop.web[i].url, shop.web[i].opsUrl, shop.workers[i].url; await shop.stop();
//
// Order: the first worker starts alone (it migrates and seeds an empty database and writes the
// shared secrets into the data directory), then the other workers and the web servers, then nginx.
// The release origin (<dataDir>/origin) must have been published before (release CLI).
import { serverEnvironment } from './owner-key.mjs';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { root } from './lib.mjs';
import { ensureNginx } from './ensure-nginx.mjs';
import { EDGE_LIMITS, edgeBodyLimits, edgeErrorMaps, edgeErrorServer } from './edge-errors.mjs';
import { freePort, sleep } from './system.mjs';
import { superviseProcess } from './supervise.mjs';
import { startClusterStatus } from './cluster-status.mjs';
import { startGatewaySimulator } from './gateway-simulator.mjs';

export { freePort };

const apiDir = join(root, 'server');

/** Waits until `url` answers 200 (or the process has died). */
async function waitReady(url, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited with code ${child.exitCode}`);
    const ok = await fetch(url).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return;
    await sleep(200);
  }
  throw new Error(`${url} was not ready within ${timeoutMs / 1000} s`);
}

/** Prefixes each line of a stream with a name. */
function pipeLines(stream, name, write) {
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop();
    for (const line of lines) write(`[${name}] ${line}\n`);
  });
}

const indent = (text) =>
  text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');

/**
 * nginx in front: the shop's port balances over the web servers and keeps the briefly cacheable
 * public pages, and the areas' port keeps their immutable files. API answers are not kept at the
 * edge: each server's own cache drops an answer the moment a change is broadcast, an edge copy
 * would outlive it.
 *
 * Pages: the key is scheme, host and address only (the page is the same for every visitor: the
 * consent notice's first frame is decided in the browser). How long is the server's to say
 * (`s-maxage`, then `stale-while-revalidate` while one request refreshes it in the background), so
 * a release, a rollback or a price change is seen through nginx within their sum after the servers
 * see it (docs/operations.md). An answer marked private (a canary running, a preview) or carrying
 * Set-Cookie is never kept. No `updating` in proxy_cache_use_stale: it would serve a stale page
 * past the server's stale-while-revalidate, for as long as nobody asked (unbounded). No cache lock
 * either: nginx's waiters poll every 500 ms and are not woken when the answer turns out not to be
 * kept, so every page during a canary would queue behind the one before; a refresh is one
 * background request per page anyway. An expired page is asked for with its ETag
 * (`proxy_cache_revalidate`): the server confirms it with a 304 without rendering when nothing it
 * shows changed, so the tail of pages asked for less often than the window still costs no render;
 * each address goes to one server (`hash`), the one that can confirm its tag. `inactive` is twice
 * the tags' lifetime (server/src/web/page-validator.ts): a copy idle longer could not be confirmed.
 */
export function nginxConfig({ dir, port, assetPort, opsPort, web, statusPort }) {
  // An idle upstream connection is dropped by nginx before a server closes it (its idle socket
  // timeout, connectionTimeout in api/src/app.ts, is 30 s): a request nginx sent on a connection
  // the server was closing would fail, and one that changes something is not sent again.
  const upstream = (name, key, balance = '') =>
    `upstream ${name} {\n${balance}${web.map((w) => `  server 127.0.0.1:${w[key]} max_fails=3 fail_timeout=5s;`).join('\n')}\n  keepalive 32;\n  keepalive_timeout 20s;\n}`;
  const proxied = [
    'proxy_http_version 1.1;',
    'proxy_set_header Connection "";',
    'proxy_set_header Host $http_host;',
    'proxy_set_header X-Forwarded-For $remote_addr;',
    'proxy_set_header X-Forwarded-Proto $scheme;',
    'proxy_set_header X-Request-Id $request_id;',
  ]
    .map((line) => `    ${line}`)
    .join('\n');
  return `
${upstream('shop_web', 'port')}
# Pages: each address always to the same server, which alone can confirm the ETag it gave (its
# catalog counters are its own, see server/src/web/page-validator.ts); a server that is down
# passes its addresses on, and the other renders them anew.
${upstream('shop_pages', 'port', '  hash $request_uri consistent;\n')}
${upstream('shop_areas', 'assetPort')}
${upstream('shop_ops', 'opsPort')}
proxy_cache_path ${dir}/cache-pages levels=1:2 keys_zone=pages:10m max_size=1g inactive=10m use_temp_path=off;
proxy_cache_path ${dir}/cache-areas levels=1:2 keys_zone=areas:10m max_size=512m inactive=7d use_temp_path=off;
map $request_uri $edge_skip_long {
  default 0;
  "~^.{2048}" 1;
}
# A preview is one browser's (its answers are private too; the cookie also keeps it from being
# answered the public page). The shopper's session cookie never reaches a page over http (Path=/api;
# over https it is __Host-shop_session on Path=/), and /api/ is never kept here; it is listed so that
# a request carrying it is passed on and nothing kept from it even so. The canary bucket cookie is not here: every browser that ran the shell has it, and the
# servers answer private while a canary runs, the only time it matters.
map $http_cookie $edge_skip_cookie {
  default 0;
  "~*(^|;\\s*)(__Host-)?(shop_preview|shop_session)=" 1;
}
# The shopper's own pages (basket, checkout, account) and the operators' console are never kept,
# whatever they answer.
map $uri $edge_skip_path {
  default 0;
  "~^/(checkout|account|ops|preview|consent)(/|$)" 1;
}
${edgeErrorMaps()}
# Only what went wrong is logged, with nginx's request id (the one its own error answers show); the path
# without its query, which may carry a reset, preview or order token (the servers' lines redact them).
log_format shop_errors escape=json '{"time":"$time_iso8601","requestId":"$request_id","status":$status,"method":"$request_method","uri":"$uri","upstream":"$upstream_addr","upstreamStatus":"$upstream_status"}';
map $status $shop_log_error {
  default 0;
  "~^[45]" 1;
}
access_log ${dir}/errors.log shop_errors if=$shop_log_error;
server {
  listen 127.0.0.1:${port};
  proxy_next_upstream error timeout http_502 http_503;
${proxied}
${indent(edgeErrorServer())}
  location /builds/events {
    proxy_pass http://shop_web;
    proxy_buffering off;
    proxy_read_timeout 1h;
  }
  location /api/ {
    proxy_pass http://shop_web;
  }
${indent(edgeBodyLimits('proxy_pass http://shop_web;'))}
  # The cluster's readiness: every process's, counted (tools/scripts/cluster-status.mjs), not one server's.
  location = /api/ready {
    proxy_pass http://127.0.0.1:${statusPort};
  }
  location / {
    # An address longer than any of the shop's is passed on, not kept: its cache key would not fit.
    error_page 418 = @uncached;
    if ($edge_skip_long) {
      return 418;
    }
    proxy_pass http://shop_pages;
    proxy_cache pages;
    proxy_cache_methods GET HEAD;
    proxy_cache_key $scheme$host$request_uri;
    proxy_cache_background_update on;
    # An expired page is asked for with its ETag: a 304 (no render) keeps the copy for another s-maxage.
    proxy_cache_revalidate on;
    proxy_cache_use_stale error timeout;
    proxy_cache_bypass $edge_skip_cookie $edge_skip_path $http_authorization;
    proxy_no_cache $edge_skip_cookie $edge_skip_path $http_authorization;
    add_header X-Edge-Cache $upstream_cache_status always;
  }
  location @uncached {
    proxy_pass http://shop_web;
  }
}
server {
  listen 127.0.0.1:${assetPort};
${proxied}
${indent(edgeErrorServer())}
  location / {
    proxy_pass http://shop_areas;
    proxy_cache areas;
    proxy_cache_key $request_uri;
    proxy_cache_lock on;
    add_header X-Edge-Cache $upstream_cache_status always;
  }
}
# The operator origin (OPS_URL): the operator console and every operator call, on the web servers'
# operator ports; nothing of it is kept, and no shop path answers here (the servers' 404).
server {
  listen 127.0.0.1:${opsPort};
${proxied}
${indent(edgeErrorServer())}
  location ${EDGE_LIMITS.upload.location} {
    client_max_body_size ${EDGE_LIMITS.upload.bytes};
    proxy_pass http://shop_ops;
  }
  location / {
    proxy_pass http://shop_ops;
  }
}
`;
}

/**
 * Starts workers, web servers and nginx; resolves once every one answers. Each server process is
 * restarted when it dies (`onGiveUp(server)` when it dies too often); nginx's /api/ready counts
 * the ones that are ready. `env`: extra settings for
 * every server process. `output(line)`: where the processes' prefixed lines go (default stdout).
 */
export async function startTopology({
  dataDir,
  databaseUrl,
  redisUrl,
  servers = 2,
  workers = 1,
  port,
  opsPort: givenOpsPort,
  env = {},
  output = (line) => process.stdout.write(line),
  onGiveUp = () => {},
  readyTimeoutMs = 300_000,
}) {
  // The shop's port and the areas' port beside it, both free; the operator origin's anywhere free.
  const shopPort = port ?? (await freePort({ count: 2 }));
  const assetPort = shopPort + 1;
  const opsPort = givenOpsPort ?? (await freePort());
  const publicUrl = `http://localhost:${shopPort}`;
  const opsUrl = `http://localhost:${opsPort}`;
  const children = [];
  let nginx = null;
  let status = null;
  let gateway = null;

  const common = {
    ...serverEnvironment(process.env),
    NODE_ENV: 'production',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    ...env,
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    HOST: '127.0.0.1',
    TRUST_PROXY: '127.0.0.1',
    PUBLIC_URL: publicUrl,
    ASSET_ORIGIN: `http://localhost:${assetPort}`,
    OPS_URL: opsUrl,
  };
  let stopping = false;
  const spawnChild = (name, role, env, ports, standby) => {
    const child = spawn(process.execPath, ['--enable-source-maps', 'dist/server.js'], {
      cwd: apiDir,
      env: {
        ...common,
        ...env,
        ROLE: role,
        PORT: String(ports.port),
        ASSET_PORT: String(ports.assetPort),
        OPS_PORT: String(ports.opsPort),
        ...(standby ? { STANDBY: '1' } : {}),
      },
      stdio: ['ignore', 'pipe', 'pipe', ...(standby ? ['ipc'] : [])],
    });
    pipeLines(child.stdout, standby ? `${name} standby` : name, output);
    pipeLines(child.stderr, standby ? `${name} standby` : name, output);
    return child;
  };

  // Each process is supervised as `npm start` supervises its server: restarted on the same ports
  // after a crash or kill -9, given up after repeated deaths (then `onGiveUp(server)`). Each also has
  // a standby beside it (STANDBY=1: started and ready, not listening, taking no job), which takes its
  // ports the moment it dies: nobody waits for a start. A new standby is then started for the next time.
  const spawnServer = async (name, role, extra) => {
    const ports = { port: await freePort(), assetPort: await freePort(), opsPort: await freePort() };
    const started = {
      name,
      role,
      ...ports,
      url: `http://127.0.0.1:${ports.port}`,
      opsUrl: `http://127.0.0.1:${ports.opsPort}`,
      restarts: 0,
      gaveUp: false,
      standby: null,
    };
    const say = (message) => output(`[cluster] ${new Date().toISOString()} ${message}\n`);
    const prepareStandby = () => {
      if (stopping || started.gaveUp || started.standby) return;
      const child = spawnChild(name, role, extra, ports, true);
      const standby = { child, ready: false };
      started.standby = standby;
      child.on('message', (message) => {
        if (message === 'standing-by') standby.ready = true;
      });
      child.on('exit', (code, signal) => {
        if (started.standby !== standby) return;
        started.standby = null;
        say(`${name}'s standby ${signal ? `was killed by ${signal}` : `exited with code ${code}`}; another in 5 s`);
        setTimeout(prepareStandby, 5_000).unref();
      });
    };
    const supervised = superviseProcess({
      name,
      say,
      start: () => {
        const standby = started.standby;
        if (!standby || standby.child.exitCode !== null) return spawnChild(name, role, extra, ports, false);
        // The standby listens once told (at once if it is ready; else when it is): it is the server now.
        started.standby = null;
        standby.child.send('activate', () => standby.child.disconnect());
        say(`${name}'s standby (pid ${standby.child.pid}) takes over${standby.ready ? '' : ' once it is ready'}`);
        setTimeout(prepareStandby, 1_000).unref();
        return standby.child;
      },
      onRestart: () => {
        started.restarts += 1;
      },
      onGiveUp: () => {
        started.gaveUp = true;
        onGiveUp(started);
      },
    });
    Object.defineProperty(started, 'child', { get: () => supervised.child, enumerable: true });
    started.prepareStandby = prepareStandby;
    started.stop = async (signal, killAfterMs) => {
      const standby = started.standby;
      started.standby = null;
      standby?.child.kill('SIGTERM');
      await supervised.stop(signal, killAfterMs);
    };
    children.push(started);
    return started;
  };

  // Should the process that started them die without stopping them (a crash), its servers go with it.
  const killAll = () => {
    for (const c of children) {
      c.child?.kill('SIGKILL');
      c.standby?.child.kill('SIGKILL');
    }
  };
  process.once('exit', killAll);

  const stop = async () => {
    stopping = true;
    process.removeListener('exit', killAll);
    await nginx?.stop().catch(() => {});
    await status?.close();
    // Web servers first (no new work), then the workers (they finish their running jobs).
    for (const role of ['web', 'worker']) {
      await Promise.all(children.filter((c) => c.role === role).map((c) => c.stop('SIGTERM', 15_000)));
    }
    await gateway?.stop();
  };

  try {
    // A real card gateway (GATEWAY_URL) for all, else one simulator beside them (never started by a server).
    if (!common.GATEWAY_URL)
      gateway = await startGatewaySimulator({
        dataDir,
        port: await freePort(),
        env: common,
        output: (line) => output(`[gateway] ${line}`),
      });
    const others = { GATEWAY_URL: common.GATEWAY_URL || gateway.url };
    const first = await spawnServer('worker-1', 'worker', others);
    await waitReady(`${first.url}/api/ready`, first.child, readyTimeoutMs);
    const rest = [];
    for (let i = 2; i <= workers; i++) rest.push(await spawnServer(`worker-${i}`, 'worker', others));
    for (let i = 1; i <= servers; i++) rest.push(await spawnServer(`web-${i}`, 'web', others));
    await Promise.all(rest.map((s) => waitReady(`${s.url}/api/ready`, s.child, readyTimeoutMs)));
    const web = children.filter((c) => c.role === 'web');
    status = await startClusterStatus(children);
    nginx = await ensureNginx({
      config: ({ dir }) => nginxConfig({ dir, port: shopPort, assetPort, opsPort, web, statusPort: status.port }),
    });
    await waitReady(`${publicUrl}/api/ready`, { exitCode: null }, 10_000);
    // The standbys start once the shop is up, so they do not slow its start.
    for (const server of children) server.prepareStandby();
    return {
      url: publicUrl,
      assetUrl: `http://localhost:${assetPort}`,
      opsUrl,
      port: shopPort,
      opsPort,
      gatewayUrl: others.GATEWAY_URL,
      nginxDir: nginx.dir,
      web,
      workers: children.filter((c) => c.role === 'worker'),
      statusUrl: status.url,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
