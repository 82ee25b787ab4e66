/**
 * Preloaded into the shop's server by page-load-alone.ts (NODE_OPTIONS=--import, which refuses
 * --cpu-prof): profiles the server's CPU and writes the profile to PROF_OUT when it exits. SIGUSR2
 * starts it over, so the profile covers only the measured load, not the start and the warm-up.
 */
import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';

if (process.argv[1]?.endsWith('dist/server.js') && process.env.PROF_OUT) {
  const out = process.env.PROF_OUT;
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 500 });
  process.on('SIGUSR2', () => session.post('Profiler.stop', () => session.post('Profiler.start')));
  session.post('Profiler.start');
  // An in-process inspector session answers synchronously, so the profile is written before the exit completes.
  process.on('exit', () => {
    session.post('Profiler.stop', (error, result) => {
      if (!error) writeFileSync(out, JSON.stringify(result.profile));
    });
  });
}
