/**
 * Device state shared by the shell and the areas (e.g. to choose a mobile
 * layout in code). The shell refreshes it after a resize, debounced by 50 ms.
 */
import { create } from 'zustand';

export const MOBILE_MAX_WIDTH = 799;

export type DeviceState = {
  width: number;
  height: number;
  isMobile: boolean;
  refresh: () => void;
};

function measure(): Pick<DeviceState, 'width' | 'height' | 'isMobile'> {
  const width = typeof window === 'undefined' ? 1024 : window.innerWidth;
  const height = typeof window === 'undefined' ? 768 : window.innerHeight;
  return { width, height, isMobile: width <= MOBILE_MAX_WIDTH };
}

export const useDeviceStore = create<DeviceState>()((set) => ({
  ...measure(),
  refresh: () => set(measure()),
}));
