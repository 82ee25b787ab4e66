import { describe, expect, it } from 'vitest';
import { sanitizeContentHtml } from '../../src/infra/pure/content-html.ts';

describe('sanitizeContentHtml', () => {
  it('removes scripts, event handlers, javascript: links and foreign iframes', () => {
    const dirty = [
      '<p onclick="steal()">Text<script>alert(1)</script></p>',
      '<img src="/media/p/1.svg" onerror="alert(2)" alt="x">',
      '<a href="javascript:alert(3)">klik</a>',
      '<a href="JaVaScRiPt:alert(4)">klik</a>',
      '<iframe src="https://evil.example/x"></iframe>',
      '<style>body{display:none}</style><svg onload="alert(5)"></svg>',
    ].join('');
    const clean = sanitizeContentHtml(dirty);
    expect(clean).not.toMatch(/script|onerror|onclick|onload|javascript:|evil\.example|<style|<svg/i);
    expect(clean).toContain('<p>Text</p>');
    expect(clean).toContain('<img src="/media/p/1.svg" alt="x" />');
  });

  it('keeps headings, lists, tables, allowed links and video embeds; turns h1 into h2', () => {
    const html =
      '<h1>Nadpis</h1><ul><li>a</li></ul><table><tr><th scope="row">A</th><td>1</td></tr></table>' +
      '<a href="/p/tehla">tehla</a><a href="mailto:obchod@example.sk">mail</a><a href="https://x.sk" target="_blank">x</a>' +
      '<iframe src="https://www.youtube-nocookie.com/embed/abc" title="Video"></iframe>';
    const clean = sanitizeContentHtml(html);
    expect(clean).toContain('<h2>Nadpis</h2>');
    expect(clean).toContain('<ul><li>a</li></ul>');
    expect(clean).toContain('<th scope="row">A</th>');
    expect(clean).toContain('<a href="/p/tehla">tehla</a>');
    expect(clean).toContain('href="mailto:obchod@example.sk"');
    expect(clean).toContain('rel="noopener noreferrer"');
    expect(clean).toContain('src="https://www.youtube-nocookie.com/embed/abc"');
  });

  it('is stable: sanitising clean HTML again changes nothing', () => {
    const once = sanitizeContentHtml('<h2>Ahoj</h2><p>Svet <strong>stavieb</strong></p>');
    expect(sanitizeContentHtml(once)).toBe(once);
  });
});
