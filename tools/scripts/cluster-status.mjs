// The cluster's readiness, as nginx answers it on /api/ready: every web server and worker is asked
// for its own readiness (1 s each, at the same time), and the answer counts them. Ready (200) while
// at least one web server and one worker are; `degraded` when some are not; 503 in the error shape
// when no web server or no worker is. A load balancer in front of the cluster, and an operator,
// see from it that a server died and whether the supervisor brought it back.
import { createServer } from 'node:http';

const PROBE_TIMEOUT_MS = 1000;

async function probe(server) {
  const child = server.child;
  if (server.gaveUp || !child || child.exitCode !== null || child.signalCode !== null) return 'down';
  try {
    const res = await fetch(`${server.url}/api/ready`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    await res.arrayBuffer();
    return res.ok ? 'ok' : 'down';
  } catch {
    return 'down';
  }
}

/** The readiness of `servers` ({ name, role, url, child, restarts, gaveUp }): status code and body. */
export async function clusterReadiness(servers) {
  const states = await Promise.all(servers.map(async (s) => ({ server: s, state: await probe(s) })));
  const count = (role) => {
    const ofRole = states.filter((s) => s.server.role === role);
    return { ready: ofRole.filter((s) => s.state === 'ok').length, total: ofRole.length };
  };
  const web = count('web');
  const workers = count('worker');
  const processes = states.map(({ server, state }) => ({
    name: server.name,
    role: server.role,
    state,
    pid: server.child?.pid ?? null,
    restarts: server.restarts,
    standby: server.standby ? (server.standby.ready ? 'ready' : 'starting') : 'none',
  }));
  if (web.ready === 0 || workers.ready === 0) {
    const missing = [web.ready === 0 ? 'webové servery' : null, workers.ready === 0 ? 'spracovanie úloh na pozadí' : null]
      .filter(Boolean)
      .join(', ');
    return {
      status: 503,
      body: {
        error: { code: 'internal', message: `Obchod teraz nie je pripravený obslúžiť požiadavky: nedostupné – ${missing}.` },
        processes,
      },
    };
  }
  const all = web.ready === web.total && workers.ready === workers.total;
  return {
    status: 200,
    body: {
      data: {
        status: all ? 'ready' : 'degraded',
        checks: Object.fromEntries(states.map(({ server, state }) => [server.name, state])),
        web,
        workers,
        processes,
      },
    },
  };
}

/** Serves clusterReadiness on a free loopback port; answers { port, url, close() }. */
export async function startClusterStatus(servers) {
  const server = createServer((req, res) => {
    clusterReadiness(servers).then(
      ({ status, body }) => {
        const text = JSON.stringify(body);
        res.writeHead(status, {
          'content-type': 'application/json; charset=utf-8',
          'cache-control': 'no-store',
          'content-length': Buffer.byteLength(text),
        });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      () => {
        res.writeHead(500).end();
      },
    );
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return { port, url: `http://127.0.0.1:${port}/api/ready`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
