import { randomString } from '../rules/random-string.ts';

declare global {
  // Every evaluated copy of the kernel registers here, so an end-to-end test
  // can prove that exactly one kernel instance is shared by shell and areas.
  var __SHOP_KERNEL_INSTANCES__: string[] | undefined;
}

/** Random id of this evaluated copy of the kernel module graph. */
export const KERNEL_INSTANCE_ID: string = randomString(16);

const registry = (globalThis.__SHOP_KERNEL_INSTANCES__ ??= []);
registry.push(KERNEL_INSTANCE_ID);
