/**
 * Starts the simulator on its own (`pnpm --filter @shop/gateway-simulator start`, or
 * tools/scripts/gateway-simulator.mjs for the launchers): GATEWAY_SECRET (required, the HMAC secret the
 * shop's server has too), GATEWAY_PORT (default: any free port), GATEWAY_HOST (default 127.0.0.1).
 * Prints `gateway simulator listening on <url>` once it takes payments; SIGTERM or SIGINT stop it.
 */
import { startGatewaySimulator } from './simulator.ts';

const secret = process.env.GATEWAY_SECRET?.trim();
if (!secret) {
  process.stderr.write(
    '[gateway] GATEWAY_SECRET is not set: the simulator signs and checks with the secret the shop has (GATEWAY_SECRET or <DATA_DIR>/gateway-secret)\n',
  );
  process.exit(1);
}
const port = Number(process.env.GATEWAY_PORT ?? 0);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(`[gateway] invalid GATEWAY_PORT: ${process.env.GATEWAY_PORT}\n`);
  process.exit(1);
}

const simulator = await startGatewaySimulator({
  secret,
  port,
  host: process.env.GATEWAY_HOST || '127.0.0.1',
  log: (message) => process.stdout.write(`[gateway] ${message}\n`),
});
process.stdout.write(`[gateway] gateway simulator listening on ${simulator.url}\n`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    void simulator.close().then(() => process.exit(0));
  });
}
