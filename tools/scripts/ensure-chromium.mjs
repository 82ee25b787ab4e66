// Debian's Chromium for the end-to-end tests and the benchmark: installed
// with apt-get when absent; never a browser downloaded by a package.
import { existsSync } from 'node:fs';
import { run, step } from './lib.mjs';

export const CHROMIUM = '/usr/bin/chromium';

export async function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await step("Installing Debian's chromium (apt-get)", async () => {
    await run(sudo[0] ?? 'apt-get', [...sudo.slice(1), ...(sudo.length ? ['apt-get'] : []), 'update'], { env });
    await run(sudo[0] ?? 'apt-get', [...(sudo.length ? ['apt-get'] : []), 'install', '-y', '--no-install-recommends', 'chromium'], { env });
  });
}
