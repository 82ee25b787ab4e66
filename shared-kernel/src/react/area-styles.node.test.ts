import { describe, expect, it } from 'vitest';
import { injectAreaStyles } from './area-styles.ts';

describe('injectAreaStyles without a document', () => {
  it('is a no-op', () => {
    expect(typeof document).toBe('undefined');
    expect(() => injectAreaStyles('catalog', 'a{}')).not.toThrow();
  });
});
