import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../src/infra/pure/html.ts';

describe('escapeHtml', () => {
  it('escapes & < > " and \'', () => {
    expect(escapeHtml(`<a href="x">Tom & Jerry's</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;');
  });

  it('escapes & first, so entities are not escaped twice or left half-done', () => {
    expect(escapeHtml('&lt;')).toBe('&amp;lt;');
    expect(escapeHtml('"><script>')).toBe('&quot;&gt;&lt;script&gt;');
  });

  it('leaves other text, Slovak letters included, as it is', () => {
    expect(escapeHtml('Sadrokartónová doska 12,5 mm – 5 €')).toBe('Sadrokartónová doska 12,5 mm – 5 €');
    expect(escapeHtml('')).toBe('');
  });
});
