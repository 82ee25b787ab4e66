/**
 * The import graph of server/src by folder (tools/scripts/folder-graph.mjs) keeps the rules of
 * server/src/README.md: no cycle between folders (a domain's subfolders count one by one, so
 * ordering's folders import each other one way only); no import upward (infrastructure into a domain,
 * a domain into web, the database into infrastructure, anything into an entry file but a command);
 * web uses a domain only through its public entry, backup no domain at all.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe as suite, expect, it } from 'vitest';
import {
  brokenRules,
  describe,
  domainInternals,
  folderCycles,
  folderGraph,
  isPublicEntry,
  nodeOf,
  unplacedNodes,
  upwardImports,
  type FolderEdge,
} from '../../../tools/scripts/folder-graph.mjs';
import { tempDir } from '@shop/release/testing';

/** An edge as folderGraph makes it, from its `file -> target` imports. */
const made = (from: string, to: string, ...files: string[]): FolderEdge => ({ from, to, files });
const shown = (edges: FolderEdge[]) => edges.map((edge) => `${edge.from} -> ${edge.to}: ${edge.files.join('; ')}`);

suite('server/src folder graph', () => {
  const edges = folderGraph();

  it('names a domain subfolder, infra and the top-level parts as nodes', () => {
    expect(nodeOf('domains/ordering/orders/order.service.ts')).toBe('domains/ordering/orders');
    expect(nodeOf('domains/catalog/products/repository/facets.ts')).toBe('domains/catalog/products');
    expect(nodeOf('domains/catalog/public.ts')).toBe('domains/catalog');
    expect(nodeOf('infra/http/errors.ts')).toBe('infra');
    expect(nodeOf('infra/pure/format.ts')).toBe('infra/pure');
    expect(nodeOf('db/seed/index.ts')).toBe('db');
    expect(nodeOf('app.ts')).toBe('app.ts');
    expect(edges.length).toBeGreaterThan(20);
  });

  it('keeps every rule of server/src/README.md', () => {
    expect(brokenRules(edges), describe(edges)).toEqual([]);
  });

  it('finds a cycle and an upward import when there is one', () => {
    expect(folderCycles([made('a', 'b'), made('b', 'c'), made('c', 'a'), made('c', 'd')])).toEqual([['a', 'b', 'c']]);
    const upward = upwardImports([
      made('infra', 'domains/ordering/orders'),
      made('db', 'infra'),
      made('domains/x/y', 'infra'),
      made('domains/releases', 'web', 'domains/releases/script-inventory.ts -> web/page-policy.ts'),
      made('web', 'infra', 'web/shell-host.ts -> infra/http/errors.ts'),
    ]);
    expect(upward.map((edge) => `${edge.from} -> ${edge.to}`)).toEqual([
      'infra -> domains/ordering/orders',
      'db -> infra',
      'domains/releases -> web',
    ]);
  });

  it('lets only the commands import an entry file, and only for its settings', () => {
    const upward = upwardImports([
      made('backup', 'config.ts', 'backup/cli.ts -> config.ts', 'backup/take-backup.ts -> config.ts'),
      made('backup', 'file-store-from-env.ts', 'backup/cli.ts -> file-store-from-env.ts'),
      made('domains/operators', 'config.ts', 'domains/operators/credentials-cli.ts -> config.ts'),
      made('domains/operators', 'app.ts', 'domains/operators/credentials-cli.ts -> app.ts'),
      made('operator-app.ts', 'app.ts', 'operator-app.ts -> app.ts'),
    ]);
    expect(shown(upward)).toEqual([
      'backup -> config.ts: backup/take-backup.ts -> config.ts',
      'domains/operators -> app.ts: domains/operators/credentials-cli.ts -> app.ts',
    ]);
  });

  it("refuses web an import of a domain's internals, and backup any import of a domain", () => {
    expect(isPublicEntry('domains/catalog/public.ts')).toBe(true);
    expect(isPublicEntry('domains/catalog/redirect/public.ts')).toBe(false);
    expect(isPublicEntry('domains/catalog/redirect/index.ts')).toBe(false);
    const internals = domainInternals([
      made(
        'web',
        'domains/catalog/redirect',
        'web/ssr/in-process-api.ts -> domains/catalog/redirect/redirect.repository.ts',
        'web/shell-host.ts -> domains/catalog/redirect/index.ts',
      ),
      made('web', 'domains/catalog', 'web/ssr/in-process-api.ts -> domains/catalog/public.ts'),
      made('web', 'domains/operators', 'web/preview-host.ts -> domains/operators/operator-accounts.repository.ts'),
      made('backup', 'domains/catalog', 'backup/cli.ts -> domains/catalog/public.ts'),
      made('app.ts', 'domains/ordering/payments', 'app.ts -> domains/ordering/payments/payment.service.ts'),
    ]);
    expect(shown(internals)).toEqual([
      'web -> domains/catalog/redirect: web/ssr/in-process-api.ts -> domains/catalog/redirect/redirect.repository.ts; web/shell-host.ts -> domains/catalog/redirect/index.ts',
      'web -> domains/operators: web/preview-host.ts -> domains/operators/operator-accounts.repository.ts',
      'backup -> domains/catalog: backup/cli.ts -> domains/catalog/public.ts',
    ]);
    expect(unplacedNodes([made('web', 'helpers'), made('infra', 'db')])).toEqual(['helpers']);
  });

  it("fails a source tree whose web imports a domain's repository, read from its files", () => {
    const root = tempDir('folder-graph-');
    const write = (file: string, text: string) => {
      mkdirSync(dirname(join(root, file)), { recursive: true });
      writeFileSync(join(root, file), text);
    };
    write('domains/shop/things/thing.repository.ts', 'export const things = 1;\n');
    write('domains/shop/public.ts', "export { things } from './things/thing.repository.ts';\n");
    write('web/good.ts', "import { things } from '../domains/shop/public.ts';\nexport const good = things;\n");
    expect(brokenRules(folderGraph(root))).toEqual([]);
    write(
      'web/ssr/bad.ts',
      "import type { things } from '../../domains/shop/things/thing.repository.ts';\nexport type Bad = typeof things;\n",
    );
    expect(brokenRules(folderGraph(root))).toEqual([
      'INTERNALS: web -> domains/shop/things (web/ssr/bad.ts -> domains/shop/things/thing.repository.ts)',
    ]);
  });
});
