import type { Db } from '../../../db/database.ts';

/** The redirects table: old URLs that moved. */
export class RedirectRepository {
  constructor(private readonly db: Db) {}

  all() {
    return this.db.selectFrom('redirects').select(['old_url', 'new_url']).orderBy('old_url').execute();
  }

  /**
   * Stores where an old URL (a normalised path) leads now, a new one or a changed target; the same
   * path stored earlier with its trailing slash is replaced, so one path has one target.
   */
  async put(oldUrl: string, newUrl: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('redirects').where('old_url', '=', `${oldUrl}/`).execute();
      await trx
        .insertInto('redirects')
        .values({ old_url: oldUrl, new_url: newUrl })
        .onConflict((conflict) => conflict.column('old_url').doUpdateSet({ new_url: newUrl }))
        .execute();
    });
  }

  /** Removes the redirect of an old URL (stored with or without its trailing slash); whether there was one. */
  async remove(oldUrl: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('redirects')
      .where('old_url', 'in', [oldUrl, `${oldUrl}/`])
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
