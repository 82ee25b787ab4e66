import { describe, expect, it, vi } from 'vitest';

describe('KERNEL_INSTANCE_ID', () => {
  it('each evaluated copy pushes its own id onto globalThis.__SHOP_KERNEL_INSTANCES__', async () => {
    globalThis.__SHOP_KERNEL_INSTANCES__ = undefined;
    vi.resetModules();
    const first = (await import('./instance.ts')).KERNEL_INSTANCE_ID;
    expect(first).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(globalThis.__SHOP_KERNEL_INSTANCES__).toEqual([first]);

    // importing again from the same module graph does not register again
    await import('./instance.ts');
    expect(globalThis.__SHOP_KERNEL_INSTANCES__).toEqual([first]);

    // a second copy (what a mis-shared federation build would load) appends
    vi.resetModules();
    const second = (await import('./instance.ts')).KERNEL_INSTANCE_ID;
    expect(second).not.toBe(first);
    expect(globalThis.__SHOP_KERNEL_INSTANCES__).toEqual([first, second]);
  });
});
