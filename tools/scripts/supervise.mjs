// A supervisor for the shop's server: runs it, restarts it within a second when it dies
// (whatever killed it: a crash, the OOM killer, kill -9), says why each time, and gives up with
// a clear message when it dies too often in a short time (a broken build or database would
// otherwise restart forever). Ctrl+C / SIGTERM stop the server gracefully and then the
// supervisor. Plain Node without dependencies, like every root command. `npm start` supervises its
// one server with it, and `npm run start:cluster` (tools/scripts/topology.mjs) each of its processes.
//
//   node tools/scripts/supervise.mjs -- <command> [args…]
//   import { supervise, superviseProcess } from './supervise.mjs'
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';

export const RESTART_DELAY_MS = 500;
export const MAX_CRASHES = 5;
export const CRASH_WINDOW_MS = 60_000;

const sayOnStderr = (message) => process.stderr.write(`[supervisor] ${new Date().toISOString()} ${message}\n`);

/**
 * Keeps one process running: `start()` spawns it; when it dies it is started again (at once the
 * first time, then after `restartDelayMs`), until it dies `maxCrashes` times within `windowMs` (then `onGiveUp(why)`).
 * A clean exit (code 0) ends the supervision (`onEnd()`). Answers `{ child, stop(signal) }`:
 * `child` is the process running now; `stop` ends the supervision, signals it and waits for its exit.
 */
export function superviseProcess({
  name,
  start,
  say = sayOnStderr,
  restartDelayMs = RESTART_DELAY_MS,
  maxCrashes = MAX_CRASHES,
  windowMs = CRASH_WINDOW_MS,
  onRestart = () => {},
  onGiveUp = () => {},
  onEnd = () => {},
}) {
  const crashes = [];
  let stopping = false;
  let timer = null;
  let child = null;

  const run = () => {
    timer = null;
    child = start();
    const current = child;
    say(`started ${name} (pid ${current.pid})`);
    current.on('error', (error) => say(`${name} could not start: ${error.message}`));
    current.on('exit', (code, signal) => {
      if (stopping) return;
      if (code === 0) {
        say(`${name} exited normally`);
        onEnd();
        return;
      }
      const now = Date.now();
      crashes.push(now);
      while (crashes.length > 0 && now - crashes[0] > windowMs) crashes.shift();
      const why = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      if (crashes.length >= maxCrashes) {
        say(
          `${name} ${why}; it died ${crashes.length} times within ${windowMs / 1000} s, giving up. Read the log above for the cause, fix it, then start again.`,
        );
        onGiveUp(why);
        return;
      }
      // The first death in the window is restarted at once (every moment without it costs shoppers);
      // a process that keeps dying waits a little between starts.
      const delay = crashes.length === 1 ? 0 : restartDelayMs;
      say(
        `${name} ${why}; restarting ${delay === 0 ? 'now' : `in ${delay / 1000} s`} (death ${crashes.length} of ${maxCrashes} allowed within ${windowMs / 1000} s)`,
      );
      timer = setTimeout(() => {
        run();
        onRestart(child);
      }, delay);
    });
  };

  const stop = (signal = 'SIGTERM', killAfterMs = 15_000) => {
    stopping = true;
    if (timer) clearTimeout(timer);
    const current = child;
    if (!current || current.exitCode !== null || current.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      const kill = setTimeout(() => current.kill('SIGKILL'), killAfterMs);
      current.once('exit', () => {
        clearTimeout(kill);
        resolve();
      });
      current.kill(signal);
    });
  };

  run();
  return {
    get child() {
      return child;
    },
    stop,
  };
}

/**
 * `npm start`'s supervision: runs `command` until it exits cleanly or is stopped; resolves with
 * the exit code the supervisor should end with (0 after a stop, 1 after giving up).
 */
export function supervise({
  command,
  args = [],
  cwd,
  env = process.env,
  name = 'server',
  restartDelayMs = RESTART_DELAY_MS,
  maxCrashes = MAX_CRASHES,
  windowMs = CRASH_WINDOW_MS,
}) {
  return new Promise((resolve) => {
    const supervised = superviseProcess({
      name,
      start: () => spawn(command, args, { cwd, env, stdio: 'inherit' }),
      restartDelayMs,
      maxCrashes,
      windowMs,
      onGiveUp: () => resolve(1),
      onEnd: () => resolve(0),
    });
    for (const sig of ['SIGINT', 'SIGTERM']) {
      process.on(sig, () => {
        void supervised.stop(sig, 60_000).then(() => {
          sayOnStderr(`${name} stopped`);
          resolve(0);
        });
      });
    }
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dash = process.argv.indexOf('--');
  const [command, ...args] = dash >= 0 ? process.argv.slice(dash + 1) : [];
  if (!command) {
    sayOnStderr('usage: node tools/scripts/supervise.mjs -- <command> [args…]');
    process.exit(2);
  }
  const number = (name, fallback) => Number(process.env[name] ?? fallback);
  const code = await supervise({
    command,
    args,
    restartDelayMs: number('SUPERVISE_RESTART_DELAY_MS', RESTART_DELAY_MS),
    maxCrashes: number('SUPERVISE_MAX_CRASHES', MAX_CRASHES),
    windowMs: number('SUPERVISE_WINDOW_MS', CRASH_WINDOW_MS),
  });
  process.exit(code);
}
