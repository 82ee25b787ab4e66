/**
 * Repository layer: the catalog's brands and attributes from memory (their urls, names, units
 * and whether an attribute is offered as a filter), kept per catalog version as the category
 * tree is. A few dozen rows that every brand page, filtered listing and facet answer looks up:
 * each lookup was a round trip of its own on PostgreSQL, one after another.
 */
import type { Brand } from '@shop/shared-kernel/contract';
import type { DbOrTrx } from '../../../../db/database.ts';

export type AttributeName = { attr_id: number; attr_name: string; unit_name: string | null; use_attr: number };

export class CatalogNames {
  private readonly brandsByUrl: Map<string, Brand>;
  private readonly brandsById: Map<number, Brand>;
  private readonly attributesById: Map<number, AttributeName>;

  /** `brands` in the order the shop lists them (by name); `attributes` in any order. */
  constructor(
    readonly brands: readonly Brand[],
    attributes: readonly AttributeName[],
  ) {
    this.brandsByUrl = new Map(brands.map((brand) => [brand.b_url, brand]));
    this.brandsById = new Map(brands.map((brand) => [brand.b_id, brand]));
    this.attributesById = new Map(attributes.map((attribute) => [attribute.attr_id, attribute]));
  }

  brandByUrl(url: string): Brand | undefined {
    return this.brandsByUrl.get(url);
  }

  brandById(id: number): Brand | undefined {
    return this.brandsById.get(id);
  }

  /** An attribute offered as a filter (use_attr = 1), or undefined. */
  filterAttribute(id: number): AttributeName | undefined {
    const attribute = this.attributesById.get(id);
    return attribute?.use_attr === 1 ? attribute : undefined;
  }
}

export async function loadCatalogNames(db: DbOrTrx): Promise<CatalogNames> {
  const [brands, attributes] = await Promise.all([
    db.selectFrom('brands').select(['b_id', 'b_url', 'b_name']).orderBy('b_name').orderBy('b_id').execute(),
    db.selectFrom('attributes').select(['attr_id', 'attr_name', 'unit_name', 'use_attr']).execute(),
  ]);
  return new CatalogNames(brands, attributes);
}
