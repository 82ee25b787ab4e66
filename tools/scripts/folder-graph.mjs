#!/usr/bin/env node
// The import graph of server/src by folder: every relative import of every .ts file, type-only ones
// included, collapsed to the folder it lands in. A node is a domain's subfolder
// (`domains/ordering/orders`; a file directly in a domain is `domains/<domain>`), `infra/pure` (small
// pure helpers), or a top-level folder or file (`infra`, `db`, `web`, `backup`, `app.ts`).
// The rules (server/src/README.md): no cycle between folders; each layer imports only its own and the
// layers below it (entry files, web, backup, domains, infra, db, infra/pure), the commands excepted,
// which read the entry files' settings; web imports of a domain only its public entry
// (`domains/<domain>/public.ts`); backup imports no domain.
// `node tools/scripts/folder-graph.mjs` prints the graph and exits 1 on a broken rule; the server test
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

/** The node a file of server/src belongs to. */
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

/** Edges `from → to` with the files that make them (`file -> target`), for every folder pair of server/src. */
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

/**
 * The layers from the top, as server/src/README.md lists them: the entry files (every top-level
 * file), `web`, `backup`, the domains, `infra`, `db`, `infra/pure`. Undefined for a folder no layer
 * names (a new top-level folder: the README and this list say where it belongs first).
 */
export function layerOf(node) {
  if (!node.includes('/') && node.endsWith('.ts')) return 0;
  if (node === 'domains' || node.startsWith('domains/')) return 3;
  return { web: 1, backup: 2, infra: 4, db: 5, 'infra/pure': 6 }[node];
}

/** Folders that belong to no layer. */
export function unplacedNodes(edges) {
  const nodes = new Set(edges.flatMap(({ from, to }) => [from, to]));
  return [...nodes].filter((node) => layerOf(node) === undefined).sort();
}

/** The files of an edge as `[file, target]` pairs. */
const pairsOf = (edge) => edge.files.map((pair) => pair.split(' -> '));

/** The commands (`backup/cli.ts`, `domains/operators/credentials-cli.ts`): a file named `cli.ts` or `*-cli.ts`. */
export const isCommand = (file) => /(^|\/|-)cli\.ts$/.test(file);
/** The entry files a command may read its settings from. */
const COMMAND_READS = new Set(['config.ts', 'file-store-from-env.ts']);

/**
 * Imports that go upward (into a layer above the importer's): infra into a domain or the parts above
 * it, a domain into web, db above infra/pure, infra/pure anywhere, anything into an entry file but a
 * command reading the settings. An edge keeps only the files that break the rule.
 */
export function upwardImports(edges) {
  return edges.flatMap((edge) => {
    const from = layerOf(edge.from);
    const to = layerOf(edge.to);
    if (from === undefined || to === undefined || to >= from) return [];
    const files = edge.files.filter((pair) => {
      const [file, target] = pair.split(' -> ');
      return !(to === 0 && isCommand(file) && COMMAND_READS.has(target));
    });
    return files.length > 0 || edge.files.length === 0 ? [{ ...edge, files }] : [];
  });
}

/** A domain's public entry: the one file of it that web/ may import. */
export const isPublicEntry = (file) => /^domains\/[^/]+\/public\.ts$/.test(file);

/**
 * Imports of a domain's internals: from web anything of a domain but its public entry
 * (`domains/<domain>/public.ts`: never a repository, service, route or other file); from backup
 * anything of a domain at all. An edge keeps only the files that break the rule.
 */
export function domainInternals(edges) {
  return edges.flatMap((edge) => {
    if ((edge.from !== 'web' && edge.from !== 'backup') || layerOf(edge.to) !== 3) return [];
    const files = pairsOf(edge)
      .filter(([, target]) => edge.from === 'backup' || !isPublicEntry(target))
      .map((pair) => pair.join(' -> '));
    return files.length > 0 || edge.files.length === 0 ? [{ ...edge, files }] : [];
  });
}

/** Every broken rule as a line of text (empty when the graph keeps them all). */
export function brokenRules(edges) {
  return [
    ...folderCycles(edges).map((cycle) => `CYCLE: ${cycle.join(' <-> ')}`),
    ...upwardImports(edges).map((edge) => `UPWARD: ${edge.from} -> ${edge.to} (${edge.files.join('; ')})`),
    ...domainInternals(edges).map((edge) => `INTERNALS: ${edge.from} -> ${edge.to} (${edge.files.join('; ')})`),
    ...unplacedNodes(edges).map((node) => `UNPLACED: ${node} is in no layer of server/src/README.md`),
  ];
}

/** The graph as text: one line a folder with what it imports, then the broken rules. */
export function describe(edges) {
  const byFrom = new Map();
  for (const { from, to } of edges) byFrom.set(from, [...(byFrom.get(from) ?? []), to]);
  return [...[...byFrom].map(([from, tos]) => `${from} -> ${tos.join(', ')}`), ...brokenRules(edges)].join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const edges = folderGraph();
  console.log(describe(edges));
  if (process.argv.includes('--files')) for (const edge of edges) console.log(`\n${edge.from} -> ${edge.to}\n  ${edge.files.join('\n  ')}`);
  if (brokenRules(edges).length > 0) process.exitCode = 1;
}
