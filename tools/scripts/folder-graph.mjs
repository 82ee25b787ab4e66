#!/usr/bin/env node
// The import graph of server/src by folder: every relative import of every .ts file, type-only ones
// included, collapsed to the folder it lands in. A node is a domain's subfolder
// (`domains/ordering/orders`; a file directly in a domain is `domains/<domain>`), `infra/pure` (small
// pure helpers), or a top-level folder or file (`infra`, `db`, `web`, `backup`, `app.ts`).
// The rules (api/src/README.md): no cycle between folders; infra imports no domain and nothing of
// web, backup or the entry files; db imports only infra/pure; infra/pure imports nothing.
// `node tools/scripts/folder-graph.mjs` prints the graph and exits 1 on a broken rule; the api test
// folder-graph.test.ts runs the same check in `npm test`.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
export const API_SRC = resolve(HERE, '..', '..', 'server', 'src');

/** Every .ts file under a folder (paths relative to it, with `/`). */
function tsFiles(root, folder = root) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return tsFiles(root, path);
    return entry.name.endsWith('.ts') ? [relative(root, path).split(sep).join('/')] : [];
  });
}

/** The node a file of api/src belongs to. */
export function nodeOf(file) {
  const parts = file.split('/');
  if (parts.length === 1) return parts[0];
  if (parts[0] === 'domains') return parts.length > 3 ? parts.slice(0, 3).join('/') : parts.slice(0, 2).join('/');
  // The small pure helpers are a layer of their own, below the database (its seed uses them).
  if (parts[0] === 'infra' && parts[1] === 'pure' && parts.length > 2) return 'infra/pure';
  return parts[0];
}

// Static imports and exports with a relative specifier, and `import('./…')` (comments skipped only roughly:
// a specifier inside a comment would count, which errs on the strict side).
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

/** Edges `from → to` with the files that make them, for every folder pair of api/src. */
export function folderGraph(root = API_SRC) {
  const edges = new Map();
  for (const file of tsFiles(root)) {
    const source = readFileSync(join(root, file), 'utf8');
    for (const match of source.matchAll(IMPORT)) {
      const target = relative(root, resolve(root, dirname(file), match[1]))
        .split(sep)
        .join('/');
      if (target.startsWith('..')) continue;
      const from = nodeOf(file);
      const to = nodeOf(target);
      if (from === to) continue;
      const key = `${from} -> ${to}`;
      if (!edges.has(key)) edges.set(key, { from, to, files: [] });
      edges.get(key).files.push(`${file} -> ${target}`);
    }
  }
  return [...edges.values()].sort((a, b) => (a.from === b.from ? a.to.localeCompare(b.to) : a.from.localeCompare(b.from)));
}

/** Strongly connected components of more than one node (Tarjan): each is a folder cycle. */
export function folderCycles(edges) {
  const next = new Map();
  for (const { from, to } of edges) {
    if (!next.has(from)) next.set(from, []);
    if (!next.has(to)) next.set(to, []);
    next.get(from).push(to);
  }
  let index = 0;
  const order = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const cycles = [];
  const visit = (node) => {
    order.set(node, index);
    low.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node)) {
      if (!order.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node), low.get(to)));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node), order.get(to)));
    }
    if (low.get(node) !== order.get(node)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const node of [...next.keys()].sort()) if (!order.has(node)) visit(node);
  return cycles;
}

/** Imports that go upward: infra into a domain or the parts above it, db above infra/pure, infra/pure anywhere. */
export function upwardImports(edges) {
  const above = (node) => node.startsWith('domains') || ['web', 'backup'].includes(node) || node.endsWith('.ts');
  return edges.filter(({ from, to }) => {
    if (from === 'infra') return above(to);
    if (from === 'db') return to !== 'infra/pure';
    if (from === 'infra/pure') return true;
    return false;
  });
}

/** The graph as text: one line a folder with what it imports, then the broken rules. */
export function describe(edges) {
  const byFrom = new Map();
  for (const { from, to } of edges) byFrom.set(from, [...(byFrom.get(from) ?? []), to]);
  const lines = [...byFrom].map(([from, tos]) => `${from} -> ${tos.join(', ')}`);
  for (const cycle of folderCycles(edges)) {
    lines.push(`CYCLE: ${cycle.join(' <-> ')}`);
  }
  for (const edge of upwardImports(edges)) lines.push(`UPWARD: ${edge.from} -> ${edge.to} (${edge.files.join('; ')})`);
  return lines.join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const edges = folderGraph();
  console.log(describe(edges));
  if (process.argv.includes('--files')) for (const edge of edges) console.log(`\n${edge.from} -> ${edge.to}\n  ${edge.files.join('\n  ')}`);
  if (folderCycles(edges).length > 0 || upwardImports(edges).length > 0) process.exitCode = 1;
}
