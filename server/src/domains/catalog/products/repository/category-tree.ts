/**
 * Repository layer: the category tree as CatalogRepository loads it (one query, once per
 * catalog version), with the lookups the routes and queries need (subtree ids, paths, words).
 */
import { shopPaths, type Breadcrumb, type CategoryNode } from '@shop/shared-kernel/contract';
import { foldText } from '../../../../infra/pure/format.ts';

export type CategoryRecord = {
  cat_id: number;
  cat_parent_id: number | null;
  cat_url: string;
  cat_name: string;
  cat_description: string;
};

/**
 * The whole category tree (small: tens to a few thousand rows), loaded once per catalog version
 * and shared by the requests: read-only.
 */
export class CategoryTree {
  readonly roots: CategoryNode[];
  private readonly byId = new Map<number, CategoryRecord>();
  private readonly byUrl = new Map<string, CategoryRecord>();
  private readonly nodes = new Map<number, CategoryNode>();
  private readonly childIds = new Map<number, number[]>();
  private folded: Map<number, string[]> | null = null;

  /** `records` in display order (position, then id). */
  constructor(records: CategoryRecord[]) {
    for (const r of records) {
      this.byId.set(r.cat_id, r);
      this.byUrl.set(r.cat_url, r);
      this.nodes.set(r.cat_id, { cat_id: r.cat_id, cat_url: r.cat_url, cat_name: r.cat_name, children: [] });
    }
    this.roots = [];
    for (const r of records) {
      const node = this.nodes.get(r.cat_id)!;
      const parent = r.cat_parent_id === null ? undefined : this.nodes.get(r.cat_parent_id);
      if (parent) {
        parent.children.push(node);
        const siblings = this.childIds.get(parent.cat_id);
        if (siblings) siblings.push(r.cat_id);
        else this.childIds.set(parent.cat_id, [r.cat_id]);
      } else {
        this.roots.push(node);
      }
    }
  }

  /** Every category, in display order. */
  all(): CategoryRecord[] {
    return [...this.byId.values()];
  }

  findByUrl(url: string): CategoryRecord | undefined {
    return this.byUrl.get(url);
  }

  node(id: number): CategoryNode | undefined {
    return this.nodes.get(id);
  }

  /** The category and all below it. */
  subtreeIds(id: number): number[] {
    const seen = new Set<number>();
    const stack = [id];
    while (stack.length > 0) {
      const current = stack.pop()!;
      if (seen.has(current)) continue;
      seen.add(current);
      stack.push(...(this.childIds.get(current) ?? []));
    }
    return [...seen];
  }

  /** From the root down to the category itself. */
  path(id: number): CategoryRecord[] {
    const out: CategoryRecord[] = [];
    const seen = new Set<number>();
    for (let r = this.byId.get(id); r && !seen.has(r.cat_id); r = r.cat_parent_id === null ? undefined : this.byId.get(r.cat_parent_id)) {
      seen.add(r.cat_id);
      out.unshift(r);
    }
    return out;
  }

  breadcrumbs(id: number): Breadcrumb[] {
    return this.path(id).map((r) => ({ name: r.cat_name, url: shopPaths.category(r.cat_url) }));
  }

  /** The words of the category's name, folded like search queries (lower-case ASCII). */
  nameWords(id: number): string[] {
    this.folded ??= new Map([...this.byId.values()].map((r) => [r.cat_id, foldText(r.cat_name).match(/[a-z0-9]+/g) ?? []]));
    return this.folded.get(id) ?? [];
  }

  root(id: number): CategoryRecord | undefined {
    return this.path(id)[0];
  }
}
