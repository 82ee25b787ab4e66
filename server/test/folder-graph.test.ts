/**
 * The import graph of api/src by folder (tools/scripts/folder-graph.mjs): no cycle between folders (a
 * domain's subfolders count one by one, so ordering's folders import each other one way only), and
 * no import upward: infrastructure into a domain, the database into infrastructure.
 */
import { describe as suite, expect, it } from 'vitest';
import { describe, folderCycles, folderGraph, nodeOf, upwardImports, type FolderEdge } from '../../tools/scripts/folder-graph.mjs';

suite('api/src folder graph', () => {
  const edges = folderGraph();

  it('names a domain subfolder, infra and the top-level parts as nodes', () => {
    expect(nodeOf('domains/ordering/orders/order.service.ts')).toBe('domains/ordering/orders');
    expect(nodeOf('domains/catalog/products/repository/facets.ts')).toBe('domains/catalog/products');
    expect(nodeOf('infra/http/errors.ts')).toBe('infra');
    expect(nodeOf('infra/pure/format.ts')).toBe('infra/pure');
    expect(nodeOf('db/seed/index.ts')).toBe('db');
    expect(nodeOf('app.ts')).toBe('app.ts');
    expect(edges.length).toBeGreaterThan(20);
  });

  it('has no cycle between folders', () => {
    const cycles = folderCycles(edges);
    expect(cycles, describe(edges)).toEqual([]);
  });

  it('imports only downward: infra no domain, db only the pure helpers', () => {
    expect(upwardImports(edges).map((edge) => `${edge.from} -> ${edge.to}: ${edge.files.join('; ')}`)).toEqual([]);
  });

  it('finds a cycle and an upward import when there is one', () => {
    const made = (from: string, to: string): FolderEdge => ({ from, to, files: [] });
    expect(folderCycles([made('a', 'b'), made('b', 'c'), made('c', 'a'), made('c', 'd')])).toEqual([['a', 'b', 'c']]);
    expect(upwardImports([made('infra', 'domains/ordering/orders'), made('db', 'infra'), made('domains/x/y', 'infra')]).length).toBe(2);
  });
});
