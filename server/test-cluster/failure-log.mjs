/**
 * A vitest reporter for the multi-server tests: when the run failed, it prints the servers'
 * warnings and errors (their JSON log lines at level 40 and above, as global-setup.mjs collected
 * them) and nginx's own error log and failed requests (an upstream that closed or reset a
 * connection shows only there), so the CI's output says what the servers and nginx saw, not only
 * what the test expected.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
const KEPT_LINES = 300;
const LINE_CHARS = 2000;

export default class FailureLog {
  onTestRunEnd(_modules, _errors, reason) {
    if (reason !== 'failed') return;
    const lines = (globalThis.shopClusterLog ?? []).filter((line) => /"level":[456]0\b/.test(line));
    const shown = lines.slice(-KEPT_LINES).map((line) => (line.length > LINE_CHARS ? `${line.slice(0, LINE_CHARS)}…\n` : line));
    process.stdout.write(`\n[cluster] the servers' last ${shown.length} warnings and errors of ${lines.length}:\n${shown.join('')}\n`);
    const nginxDir = globalThis.shopClusterNginxDir;
    for (const file of ['error.log', 'errors.log']) {
      const path = nginxDir ? join(nginxDir, file) : null;
      if (!path || !existsSync(path)) continue;
      // errors.log has every 4xx too (the fuzz makes thousands): the 5xx only.
      const lines = readFileSync(path, 'utf8')
        .split('\n')
        .filter((line) => line && (file === 'error.log' || /"status":5/.test(line)));
      const kept = lines.slice(-KEPT_LINES);
      process.stdout.write(
        `[cluster] nginx's ${file}, its last ${kept.length} lines:\n${kept.map((line) => line.slice(0, LINE_CHARS)).join('\n')}\n`,
      );
    }
  }
}
