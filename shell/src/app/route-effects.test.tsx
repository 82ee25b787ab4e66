import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import { useDeviceStore } from '@shop/shared-kernel';
import { RESIZE_DEBOUNCE_MS, useDeviceRefresh } from './route-effects.ts';

function Probe() {
  useDeviceRefresh();
  return null;
}

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('device refresh on resize', () => {
  it('refreshes the device state once, 50 ms after the last resize event', () => {
    vi.useFakeTimers();
    const refresh = vi.spyOn(useDeviceStore.getState(), 'refresh');
    useDeviceStore.setState({ refresh });
    render(<Probe />);
    for (let i = 0; i < 5; i += 1) {
      window.dispatchEvent(new Event('resize'));
      vi.advanceTimersByTime(20);
    }
    expect(refresh).not.toHaveBeenCalled();
    vi.advanceTimersByTime(RESIZE_DEBOUNCE_MS - 20);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(RESIZE_DEBOUNCE_MS).toBe(50);
  });
});
