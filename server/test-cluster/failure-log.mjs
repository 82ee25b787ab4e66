/**
 * A vitest reporter for the multi-server tests: when the run failed, it prints the servers'
 * warnings and errors (their JSON log lines at level 40 and above, as global-setup.mjs collected
 * them), so the CI's output says what the servers saw, not only what the test expected.
 */
const KEPT_LINES = 300;
const LINE_CHARS = 2000;

export default class FailureLog {
  onTestRunEnd(_modules, _errors, reason) {
    if (reason !== 'failed') return;
    const lines = (globalThis.shopClusterLog ?? []).filter((line) => /"level":[456]0\b/.test(line));
    const shown = lines.slice(-KEPT_LINES).map((line) => (line.length > LINE_CHARS ? `${line.slice(0, LINE_CHARS)}…\n` : line));
    process.stdout.write(`\n[cluster] the servers' last ${shown.length} warnings and errors of ${lines.length}:\n${shown.join('')}\n`);
  }
}
