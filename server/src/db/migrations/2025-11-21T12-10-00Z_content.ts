import { PostgresAdapter } from 'kysely';
import type { ColumnDefinitionBuilder, Kysely } from 'kysely';

// Frozen: never edit a migration that has run; add a new one.

function generatedId(db: Kysely<any>) {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  return (col: ColumnDefinitionBuilder) =>
    pg ? col.primaryKey().generatedByDefaultAsIdentity() : col.primaryKey().autoIncrement();
}

export async function up(db: Kysely<any>): Promise<void> {
  const id = generatedId(db);

  await db.schema
    .createTable('redirects')
    .addColumn('r_id', 'integer', id)
    .addColumn('old_url', 'text', (c) => c.notNull().unique())
    .addColumn('new_url', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('pages')
    .addColumn('page_id', 'integer', id)
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('meta_description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('content_html', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('blog_posts')
    .addColumn('post_id', 'integer', id)
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('perex', 'text', (c) => c.notNull())
    .addColumn('content_html', 'text', (c) => c.notNull())
    .addColumn('published_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('blog_posts_published_idx').on('blog_posts').column('published_at').execute();

  await db.schema
    .createTable('blog_tags')
    .addColumn('tag_id', 'integer', id)
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('blog_post_tags')
    .addColumn('post_id', 'integer', (c) => c.notNull().references('blog_posts.post_id').onDelete('cascade'))
    .addColumn('tag_id', 'integer', (c) => c.notNull().references('blog_tags.tag_id').onDelete('cascade'))
    .addPrimaryKeyConstraint('blog_post_tags_pk', ['post_id', 'tag_id'])
    .execute();
  await db.schema.createIndex('blog_post_tags_tag_idx').on('blog_post_tags').column('tag_id').execute();

  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['settings', 'blog_post_tags', 'blog_tags', 'blog_posts', 'pages', 'redirects']) {
    await db.schema.dropTable(table).execute();
  }
}
