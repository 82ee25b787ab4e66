// The card gateway simulator (tools/gateway-simulator) beside a shop the launchers start: `npm start`,
// the cluster, the end-to-end and benchmark servers. The shop's server never starts it; it is
// given the simulator's address (GATEWAY_URL). The secret both sign with is GATEWAY_SECRET, else the
// one the server reads from its data directory (<DATA_DIR>/gateway-secret, made here when missing).
//
//   import { startGatewaySimulator } from './gateway-simulator.mjs'
//   const gateway = await startGatewaySimulator({ dataDir, port }); … env.GATEWAY_URL = gateway.url; … await gateway.stop();
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const toolDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'gateway-simulator');

/** GATEWAY_SECRET, else <dataDir>/gateway-secret (as the server's loadGatewaySecret reads it), made once when missing. */
export function gatewaySecret(dataDir, env = process.env) {
  if (env.GATEWAY_SECRET) return env.GATEWAY_SECRET;
  const file = join(dataDir, 'gateway-secret');
  try {
    const existing = readFileSync(file, 'utf8').trim();
    if (existing) return existing;
  } catch {
    // not made yet
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/**
 * Starts the simulator as a child process on `port` (0: any free port) and resolves once it takes
 * payments: `{ url, secret, stop() }`. Its log lines go to `output`; it dies with this process.
 */
export function startGatewaySimulator({ dataDir, port = 0, env = process.env, output = (line) => process.stdout.write(line) }) {
  const secret = gatewaySecret(dataDir, env);
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/start.ts'], {
    cwd: toolDir,
    env: { ...env, GATEWAY_SECRET: secret, GATEWAY_PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const killNow = () => child.kill('SIGKILL');
  process.once('exit', killNow);
  const stop = () =>
    new Promise((resolve) => {
      process.removeListener('exit', killNow);
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    let url = null;
    let pending = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop();
      for (const line of lines) {
        const listening = /gateway simulator listening on (\S+)/.exec(line);
        if (listening && !url) {
          url = listening[1];
          resolve({ url, secret, stop });
        } else output(`${line}\n`);
      }
    });
    child.once('exit', (code, signal) => {
      if (!url) reject(new Error(`the card gateway simulator did not start (${signal ?? `exit code ${code}`})`));
    });
  });
}
