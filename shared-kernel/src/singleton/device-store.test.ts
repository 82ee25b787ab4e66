// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { MOBILE_MAX_WIDTH, useDeviceStore } from './device-store.ts';

describe('device store', () => {
  it('measures the window and tells a phone from a desktop on refresh', () => {
    window.innerWidth = 390;
    window.innerHeight = 844;
    useDeviceStore.getState().refresh();
    expect(useDeviceStore.getState()).toMatchObject({ width: 390, height: 844, isMobile: true });
    window.innerWidth = MOBILE_MAX_WIDTH + 1;
    useDeviceStore.getState().refresh();
    expect(useDeviceStore.getState().isMobile).toBe(false);
  });
});
