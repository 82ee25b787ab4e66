/**
 * A hostile content release in a real browser: its server build loops forever (then, in a second
 * release, allocates without bound) on every page it renders. The sandbox stops it, so /blog still
 * answers 200 within 2 s, as the page the browser renders (no server HTML, not kept by a cache), and
 * the blog works in Chromium from the release's own browser build; the operator console names the
 * part and version whose render failed. The release is then undone.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures.ts';
import { origin, release, repo } from './release-cli.ts';
import { createOperator, signInFirstTime } from './operator.ts';

const made: string[] = [];
test.afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The content build whose server build's every page loops forever or allocates without bound (its browser build untouched). */
function hostileContentBuild(kind: 'loop' | 'alloc'): string {
  const dist = mkdtempSync(join(tmpdir(), `content-${kind}-`));
  made.push(dist);
  cpSync(join(repo, 'mf-content', 'dist'), dist, { recursive: true });
  const body = kind === 'loop' ? 'for (;;) {}' : 'const kept = []; for (let i = 0; ; i += 1) kept.push(new Array(100000).fill(i));';
  appendFileSync(
    join(dist, 'server', 'entry.cjs'),
    `\n;exports.modules = Object.fromEntries(Object.entries(exports.modules).map(([name, load]) =>
  [name, name === './routeData' ? load : () => Promise.resolve({ default: function Hostile() { ${body} } })]));\n`,
  );
  // Another version (the release names it by its files' hash), whatever the browser build.
  writeFileSync(join(dist, 'server', 'hostile.txt'), kind);
  return dist;
}

test('a content release whose server build loops or allocates forever: /blog answers 200 within 2 s and works in Chromium', async ({
  page,
  request,
}) => {
  const stable = JSON.parse(readFileSync(join(origin, 'builds', 'latest.json'), 'utf8')).areas.content.version as string;
  const hostile: string[] = [];
  try {
    for (const kind of ['loop', 'alloc'] as const) {
      release(['deploy', 'content', '--dist', hostileContentBuild(kind), '--reason', `render sandbox test: ${kind}`]);
      hostile.push(JSON.parse(readFileSync(join(origin, 'builds', 'latest.json'), 'utf8')).areas.content.version as string);
      const started = Date.now();
      const response = await request.get('/blog', { headers: { accept: 'text/html' } });
      expect(Date.now() - started, kind).toBeLessThan(2000);
      expect(response.status(), kind).toBe(200);
      expect(response.headers()['cache-control'], kind).toBe('private, no-cache');
      const html = await response.text();
      expect(html, kind).not.toContain('shop-server-data');
      // No server-rendered layout in the page (the stylesheet names its classes, the markup is the browser's).
      expect(html, kind).not.toContain('<header class="site-header"');

      // The browser renders the blog from the release's browser build, and it works: its posts, a tag.
      await page.goto('/blog');
      await expect(page.getByRole('heading', { level: 1, name: 'Blog' })).toBeVisible();
      await expect(page.getByTestId('post-card')).toHaveCount(15);
      await page
        .getByRole('navigation', { name: 'Témy blogu' })
        .getByRole('link', { name: /Návody/ })
        .click();
      await expect(page.getByRole('heading', { level: 1, name: 'Blog: Návody' })).toBeVisible();
    }

    // The operator console names the part and each version whose server render failed, on /blog.
    const consoleTab = await page.context().newPage();
    await signInFirstTime(consoleTab, createOperator());
    const failures = consoleTab.getByTestId('ops-render-failures');
    for (const version of hostile) await expect(failures.locator('li', { hasText: version }).first()).toContainText('Obsah');
    await expect(failures).toContainText('/blog');
    await consoleTab.close();
  } finally {
    release(['rollback', 'content', stable, '--reason', 'render sandbox test']);
    release(['deploy', 'content', '--dist', join(repo, 'mf-content', 'dist'), '--override-pin']);
  }
});
