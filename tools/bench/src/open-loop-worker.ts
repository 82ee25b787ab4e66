/**
 * An open-loop load test, in its own process (pinned to its own core by the caller): requests
 * leave at a fixed offered rate whatever the server answers, and each latency counts from the
 * moment its request was due, so a server that falls behind shows it in the percentiles instead
 * of slowing the load down (no coordinated omission). Prints the result as JSON.
 *   echo '<json options>' | tsx src/open-loop-worker.ts
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';

type Options = { url: string; paths: string[]; rate: number; seconds: number; headers?: Record<string, string> };
const options = JSON.parse(readFileSync(0, 'utf8')) as Options;
/** A request not answered this long after it was due counts as an error. */
const DEADLINE_MS = 5_000;

const target = new URL(options.url);
// Enough sockets for the rate at a few hundred milliseconds each; beyond that requests wait in the
// agent's queue, and that wait counts in their latency.
const agent = new Agent({ keepAlive: true, maxSockets: 256 });
const latencies: number[] = [];
let errors = 0;
let cacheHits = 0;
let pending = 0;
let lastAnswer = 0;

function send(path: string, due: number): void {
  pending += 1;
  let settled = false;
  const settle = (ok: boolean) => {
    if (settled) return;
    settled = true;
    pending -= 1;
    const latency = performance.now() - due;
    if (ok && latency <= DEADLINE_MS) {
      latencies.push(latency);
      lastAnswer = performance.now();
    } else errors += 1;
  };
  // A compressed answer, as a browser asks for.
  const headers = { 'accept-encoding': 'br, gzip', ...options.headers };
  const req = request({ host: target.hostname, port: target.port, path, agent, headers, timeout: DEADLINE_MS }, (res) => {
    if (res.headers['x-cache'] === 'HIT') cacheHits += 1;
    res.resume();
    res.on('end', () => settle(res.statusCode !== undefined && res.statusCode < 400));
    res.on('error', () => settle(false));
  });
  req.on('timeout', () => req.destroy());
  req.on('error', () => settle(false));
  req.end();
}

const total = Math.round(options.rate * options.seconds);
const interval = 1000 / options.rate;
const start = performance.now();
let sent = 0;
await new Promise<void>((done) => {
  const tick = () => {
    const now = performance.now();
    while (sent < total && start + sent * interval <= now) {
      send(options.paths[sent % options.paths.length]!, start + sent * interval);
      sent += 1;
    }
    if (sent < total) setTimeout(tick, 1);
    else done();
  };
  tick();
});
// Wait for the last answers, at most until their deadline.
const stopWaiting = performance.now() + DEADLINE_MS + 500;
while (pending > 0 && performance.now() < stopWaiting) await new Promise((resolve) => setTimeout(resolve, 20));
errors += pending;
agent.destroy();

const sorted = latencies.sort((a, b) => a - b);
const at = (q: number) => (sorted.length === 0 ? NaN : Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!));
// Answers per second from the first request to the last good answer (late ones arrive after the window).
const answered = sorted.length === 0 ? 0 : sorted.length / Math.max(options.seconds, (lastAnswer - start) / 1000);
process.stdout.write(JSON.stringify({ offered: options.rate, answered, p50: at(0.5), p99: at(0.99), errors, total, cacheHits }));
