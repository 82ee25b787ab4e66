import { describe, expect, it } from 'vitest';
import { clientStackFrames, MAX_STACK_FRAMES, scrubStackFrame } from './client-stack.ts';

const AREA_FILE = 'https://cdn.example/remotes/checkout/1.0.0-0123456789/assets/cart-page-D4vLn_5c.js';

describe('clientStackFrames', () => {
  it('reads V8 frames, named and anonymous, and keeps a released file’s address and its long column', () => {
    const stack = [
      'TypeError: Cannot read properties of undefined (reading "x") for jan@example.sk',
      `    at Ab (${AREA_FILE}:1:123456)`,
      `    at async ${AREA_FILE}:2:17`,
      '    at https://shop.example/assets/index-9f8e7d6c.js:1:99',
    ].join('\n');
    expect(clientStackFrames(stack)).toEqual([
      { fn: 'Ab', url: AREA_FILE, line: 1, column: 123456 },
      { url: AREA_FILE, line: 2, column: 17 },
      { url: 'https://shop.example/assets/index-9f8e7d6c.js', line: 1, column: 99 },
    ]);
  });

  it('reads Firefox and Safari frames', () => {
    expect(clientStackFrames(`Ab@${AREA_FILE}:1:5\n@${AREA_FILE}:3:7`)).toEqual([
      { fn: 'Ab', url: AREA_FILE, line: 1, column: 5 },
      { url: AREA_FILE, line: 3, column: 7 },
    ]);
  });

  it('scrubs any other address and function name of e-mails, long numbers and query strings', () => {
    const [frame] = clientStackFrames('    at jan.novak@example.sk (https://shop.example/objednavka/12345678?email=jan@example.sk#x:4:2)');
    expect(frame).toEqual({ fn: '[email]', url: 'https://shop.example/objednavka/[number]', line: 4, column: 2 });
    const [released] = clientStackFrames(`    at f (${AREA_FILE}?token=secret:1:1)`);
    expect(released!.url).toBe(AREA_FILE);
  });

  it('keeps at most MAX_STACK_FRAMES frames and ignores what is not a frame or not text', () => {
    const stack = Array.from({ length: 40 }, (_, i) => `    at f${i} (${AREA_FILE}:1:${i + 1})`).join('\n');
    expect(clientStackFrames(stack)).toHaveLength(MAX_STACK_FRAMES);
    expect(clientStackFrames('just a message')).toEqual([]);
    expect(clientStackFrames(undefined)).toEqual([]);
    expect(clientStackFrames({ stack: 'x' })).toEqual([]);
  });

  it('refuses a frame whose position is not a bounded whole number', () => {
    expect(scrubStackFrame({ url: AREA_FILE, line: -1, column: 1 })).toBeNull();
    expect(scrubStackFrame({ url: AREA_FILE, line: 1, column: 1e12 })).toBeNull();
    expect(scrubStackFrame({ url: AREA_FILE, line: 1.5, column: 1 })).toBeNull();
  });
});
