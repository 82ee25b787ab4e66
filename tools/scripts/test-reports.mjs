// The failing tests named in the JSON reports `npm test` writes (.data/test-reports), so the
// summary at the end of a run names each failed stage's tests and why, not only that the stage
// failed: CI keeps only the end of the output, and a failure that happens only there must be
// readable from it.

const firstLine = (text) => String(text ?? 'failed').split('\n')[0];
// eslint-disable-next-line no-control-regex
const plain = (text) => String(text ?? '').replace(/\u001b\[[0-9;]*m/g, '');

/** The first lines of a failure's message (its assertion and where it failed), indented under the test. */
function why(message, lines = 6) {
  const kept = plain(message)
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '')
    .slice(0, lines);
  return kept.length === 0 ? '' : `\n${kept.map((line) => `          ${line.slice(0, 200)}`).join('\n')}`;
}

/** `file › describe › test` of each failed test in a Vitest JSON report; a file that failed outside its tests by its message. */
export function failedVitestTests(report, root = '') {
  const relative = (file) => (root && file.startsWith(root) ? file.slice(root.length + 1) : file);
  const failures = [];
  for (const result of report.testResults ?? []) {
    const failed = (result.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of failed)
      failures.push(
        `${relative(result.name)} › ${[...(test.ancestorTitles ?? []), test.title].join(' › ')}${why(test.failureMessages?.[0])}`,
      );
    // A file that failed outside its tests (an import, a hook) has no failed test to name.
    if (result.status === 'failed' && failed.length === 0) failures.push(`${relative(result.name)}: ${firstLine(result.message)}`);
  }
  return failures;
}

/** The specs of a Playwright JSON report with the titles of the describe blocks around them. */
function* playwrightSpecs(suite, titles) {
  const inner = suite.title && suite.title !== suite.file ? [...titles, suite.title] : titles;
  for (const spec of suite.specs ?? []) yield { spec, titles: inner };
  for (const child of suite.suites ?? []) yield* playwrightSpecs(child, inner);
}

/** `file:line › describe › test` of each failed test in a Playwright JSON report, and the run's own errors. */
export function failedPlaywrightTests(report) {
  const failures = [];
  for (const suite of report.suites ?? [])
    for (const { spec, titles } of playwrightSpecs(suite, []))
      for (const test of spec.tests ?? []) {
        if (test.status !== 'unexpected') continue;
        const error = test.results?.at(-1)?.error;
        failures.push(`${spec.file}:${spec.line} › ${[...titles, spec.title].join(' › ')}${why(error?.stack ?? error?.message, 10)}`);
      }
  for (const error of report.errors ?? []) failures.push(`run: ${firstLine(error.message)}`);
  return failures;
}
