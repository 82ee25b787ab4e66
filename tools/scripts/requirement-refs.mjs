// Every "requirements R<n>[.<m>]" a file of the repository cites must be a numbered item or section
// of docs/requirements.md, so a reference cannot point at nothing. `node tools/scripts/requirement-refs.mjs`
// prints the unresolved ones (exit 1); server/test/platform/requirement-refs.test.ts runs it in npm test.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './lib.mjs';

export const REQUIREMENTS_FILE = 'docs/requirements.md';

/** The ids docs/requirements.md defines: sections (`## R9 …`) and items (`**R9.4**`). */
export function definedIds(markdown) {
  const ids = new Set();
  for (const match of markdown.matchAll(/^##\s+(R\d+)\b/gm)) ids.add(match[1]);
  for (const match of markdown.matchAll(/\*\*(R\d+\.\d+)\*\*/g)) ids.add(match[1]);
  return ids;
}

/** The ids a text cites: "requirements R2.9", "requirements R3.9, R5.2, R9.7", "requirements R9.3–R9.6". */
export function citedIds(text) {
  const ids = [];
  for (const match of text.matchAll(/requirements (R\d+(?:\.\d+)?(?:(?:, |–)R\d+(?:\.\d+)?)*)/gi)) {
    ids.push(...match[1].split(/, |–/));
  }
  return ids;
}

/** Unresolved citations of the tracked files: [{ file, id }]. */
export function unresolvedRefs() {
  const defined = definedIds(readFileSync(join(root, REQUIREMENTS_FILE), 'utf8'));
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((file) => /\.(ts|tsx|mjs|js|md|css)$/.test(file) && file !== REQUIREMENTS_FILE);
  const missing = [];
  for (const file of files) {
    let text;
    try {
      text = readFileSync(join(root, file), 'utf8');
    } catch {
      continue;
    }
    for (const id of citedIds(text)) if (!defined.has(id)) missing.push({ file, id });
  }
  return missing;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const missing = unresolvedRefs();
  for (const { file, id } of missing) process.stderr.write(`${file}: requirements ${id} is not in ${REQUIREMENTS_FILE}\n`);
  process.exit(missing.length > 0 ? 1 : 0);
}
