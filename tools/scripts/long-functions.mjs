#!/usr/bin/env node
// Every function, method, arrow function and React component longer than 80 lines in the
// repository's source: the `src/` of every workspace package (pnpm-workspace.yaml: the shell, the
// areas, the kernel, the server and its console, the release tool, tools/*), tests, seed data and
// migrations left out. Longest first, each with file:line and a name (`outer > inner` when nested).
// `node tools/scripts/long-functions.mjs [--over N]` prints the list; a report, never a failing check.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { root } from './lib.mjs';

export const LIMIT = 80;

/** The workspace packages' folders, from pnpm-workspace.yaml (a `*` in a pattern is any name within one folder level). */
export function workspacePackages(rootDir = root) {
  const yaml = readFileSync(join(rootDir, 'pnpm-workspace.yaml'), 'utf8');
  const packagesList = yaml.slice(yaml.indexOf('packages:')).split(/\n(?=\S)/)[0];
  const patterns = [...packagesList.matchAll(/^\s+-\s+['"]?([^'"\s#]+)['"]?\s*$/gm)].map((match) => match[1]);
  const matching = (dirs, segment) => {
    const name = new RegExp(`^${segment.replaceAll('.', '\\.').replaceAll('*', '[^/]*')}$`);
    return dirs.flatMap((dir) =>
      existsSync(join(rootDir, dir))
        ? readdirSync(join(rootDir, dir), { withFileTypes: true })
            .filter((entry) => entry.isDirectory() && name.test(entry.name))
            .map((entry) => (dir === '.' ? entry.name : `${dir}/${entry.name}`))
        : [],
    );
  };
  const folders = patterns.flatMap((pattern) => pattern.split('/').reduce(matching, ['.']));
  return [...new Set(folders)].filter((dir) => existsSync(join(rootDir, dir, 'package.json'))).sort();
}

const SOURCE = /\.(?:tsx?|mts|m?js)$/;
/** Tests and their helpers (`test-*.ts`, the kernel's `testing/`), declarations, seed data and migrations. */
const LEFT_OUT =
  /(?:\.(?:test|spec)\.[^/]+$|\.d\.m?ts$|(?:^|\/)test-[^/]+$|(?:^|\/)(?:test|tests|testing|__tests__|test-cluster|seed|migrations|node_modules|dist)\/)/;

/** The source files of the packages' `src/` folders, relative to the root, with `/`. */
export function sourceFiles(rootDir = root) {
  const walk = (dir) =>
    readdirSync(join(rootDir, dir), { withFileTypes: true }).flatMap((entry) => {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) return LEFT_OUT.test(`${path}/`) ? [] : walk(path);
      return SOURCE.test(entry.name) && !LEFT_OUT.test(path) ? [path] : [];
    });
  return workspacePackages(rootDir)
    .map((dir) => `${dir}/src`)
    .filter((dir) => existsSync(join(rootDir, dir)))
    .flatMap(walk)
    .sort();
}

const isFunction = (node) =>
  ts.isFunctionDeclaration(node) ||
  ts.isFunctionExpression(node) ||
  ts.isArrowFunction(node) ||
  ts.isMethodDeclaration(node) ||
  ts.isConstructorDeclaration(node) ||
  ts.isGetAccessorDeclaration(node) ||
  ts.isSetAccessorDeclaration(node);

const textOf = (name, file) => (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) ? name.text : name.getText(file));

/** What a function is called where it stands: its own name, the variable, property or call it is given to. */
function ownName(node, file) {
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (node.name) return textOf(node.name, file);
  let at = node;
  // Through wrappers: (…), `as`, `satisfies`, memo(…), forwardRef(…).
  while (ts.isParenthesizedExpression(at.parent) || ts.isAsExpression(at.parent) || ts.isSatisfiesExpression(at.parent)) at = at.parent;
  const parent = at.parent;
  if (ts.isCallExpression(parent) && /^(?:React\.)?(?:memo|forwardRef|lazy)$/.test(parent.expression.getText(file)))
    return ownName(parent, file);
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
    return textOf(parent.name, file);
  if (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken) return parent.left.getText(file);
  if (ts.isExportAssignment(parent)) return 'default export';
  if (ts.isJsxExpression(parent) && ts.isJsxAttribute(parent.parent)) return textOf(parent.parent.name, file);
  if (ts.isCallExpression(parent) || ts.isNewExpression(parent)) {
    const callee = (ts.isNewExpression(parent) ? 'new ' : '') + parent.expression.getText(file).replace(/\s+/g, '');
    const first = parent.arguments?.[0];
    const label = first && first !== at && ts.isStringLiteralLike(first) ? ` '${first.text}'` : '';
    return `${callee.length > 40 ? `${callee.slice(0, 37)}...` : callee}(${label.trim()}) callback`;
  }
  return '(anonymous)';
}

/** The name with what it stands in: `Class.method`, `outer > inner`. */
function fullName(node, file) {
  const parts = [{ name: ownName(node, file), isClass: false }];
  for (let at = node.parent; at; at = at.parent) {
    if (isFunction(at)) parts.unshift({ name: ownName(at, file), isClass: false });
    else if ((ts.isClassDeclaration(at) || ts.isClassExpression(at)) && at.name) parts.unshift({ name: at.name.text, isClass: true });
  }
  return parts.map((part, index) => (index === 0 ? '' : parts[index - 1].isClass ? '.' : ' > ') + part.name).join('');
}

function kindOf(node, name, path) {
  if (
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  )
    return 'method';
  if (/\.[jt]sx$/.test(path) && /^[A-Z]\w*$/.test(name.split(/ > |\./).at(-1))) return 'component';
  return ts.isArrowFunction(node) ? 'arrow' : 'function';
}

/** Every function of one file's text longer than `over` lines. */
export function longFunctions(path, text, over = LIMIT) {
  const kind = path.endsWith('x') ? ts.ScriptKind.TSX : /\.m?js$/.test(path) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
  const found = [];
  const visit = (node) => {
    if (isFunction(node) && node.body) {
      const start = file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
      const lines = file.getLineAndCharacterOfPosition(node.end).line + 2 - start;
      if (lines > over) {
        const name = fullName(node, file);
        found.push({ path, line: start, lines, name, kind: kindOf(node, name, path) });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** The whole repository's long functions, longest first. */
export function repositoryLongFunctions(over = LIMIT, rootDir = root) {
  return sourceFiles(rootDir)
    .flatMap((path) => longFunctions(path, readFileSync(join(rootDir, path), 'utf8'), over))
    .sort((a, b) => b.lines - a.lines || a.path.localeCompare(b.path) || a.line - b.line);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--over');
  const over = at > 0 ? Number(process.argv[at + 1]) : LIMIT;
  if (!Number.isInteger(over) || over < 1) {
    process.stderr.write('usage: node tools/scripts/long-functions.mjs [--over N]  (N: a whole number of lines, default 80)\n');
    process.exit(2);
  }
  const found = repositoryLongFunctions(over);
  for (const { path, line, lines, name, kind } of found) console.log(`${String(lines).padStart(5)}  ${path}:${line}  ${name} (${kind})`);
  console.log(`${found.length} functions over ${over} lines (the src/ of every workspace package; no tests, seed data or migrations)`);
}
