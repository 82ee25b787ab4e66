// A supervisor for the shop's server: runs it, restarts it within a second when it dies
// (whatever killed it: a crash, the OOM killer, kill -9), says why each time, and gives up with
// a clear message when it dies too often in a short time (a broken build or database would
// otherwise restart forever). Ctrl+C / SIGTERM stop the server gracefully and then the
// supervisor. Plain Node without dependencies, like every root command.
//
//   node scripts/supervise.mjs -- <command> [args…]
//   import { supervise } from './supervise.mjs'
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';

export const RESTART_DELAY_MS = 500;
export const MAX_CRASHES = 5;
export const CRASH_WINDOW_MS = 60_000;

const say = (message) => process.stderr.write(`[supervisor] ${new Date().toISOString()} ${message}\n`);

/**
 * Runs `command` until it exits cleanly or is stopped; resolves with the exit code the
 * supervisor should end with (0 after a stop, 1 after giving up).
 */
export function supervise({ command, args = [], cwd, env = process.env, name = 'server', restartDelayMs = RESTART_DELAY_MS, maxCrashes = MAX_CRASHES, windowMs = CRASH_WINDOW_MS }) {
  return new Promise((resolve) => {
    let child = null;
    let stopping = false;
    const crashes = [];

    const start = () => {
      child = spawn(command, args, { cwd, env, stdio: 'inherit' });
      say(`started ${name} (pid ${child.pid})`);
      child.on('error', (error) => say(`${name} could not start: ${error.message}`));
      child.on('exit', (code, signal) => {
        child = null;
        if (stopping) {
          say(`${name} stopped`);
          resolve(0);
          return;
        }
        if (code === 0) {
          say(`${name} exited normally`);
          resolve(0);
          return;
        }
        const now = Date.now();
        crashes.push(now);
        while (crashes.length > 0 && now - crashes[0] > windowMs) crashes.shift();
        const why = signal ? `was killed by ${signal}` : `exited with code ${code}`;
        if (crashes.length >= maxCrashes) {
          say(`${name} ${why}; it died ${crashes.length} times within ${windowMs / 1000} s, giving up. Read the log above for the cause, fix it, then start again.`);
          resolve(1);
          return;
        }
        say(`${name} ${why}; restarting in ${restartDelayMs / 1000} s (death ${crashes.length} of ${maxCrashes} allowed within ${windowMs / 1000} s)`);
        setTimeout(() => {
          if (!stopping) start();
          else resolve(0);
        }, restartDelayMs);
      });
    };

    for (const sig of ['SIGINT', 'SIGTERM']) {
      process.on(sig, () => {
        stopping = true;
        if (child) child.kill(sig);
        else resolve(0);
      });
    }
    start();
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dash = process.argv.indexOf('--');
  const [command, ...args] = dash >= 0 ? process.argv.slice(dash + 1) : [];
  if (!command) {
    say('usage: node scripts/supervise.mjs -- <command> [args…]');
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
