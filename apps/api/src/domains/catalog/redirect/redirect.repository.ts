import type { Db } from '../../../db/database.ts';

/** The redirects table: old URLs that moved. */
export class RedirectRepository {
  constructor(private readonly db: Db) {}

  all() {
    return this.db.selectFrom('redirects').select(['old_url', 'new_url']).orderBy('old_url').execute();
  }

  /** Where a normalised path (with or without its trailing slash) leads; null when it did not move. */
  async targetOf(path: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('redirects')
      .select('new_url')
      .where('old_url', 'in', [path, `${path}/`])
      .orderBy('old_url')
      .executeTakeFirst();
    return row?.new_url ?? null;
  }
}
