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

/** What a server render assumes: a desktop window (the page's CSS adapts before any script runs). */
const SERVER_WINDOW = { width: 1024, height: 768, isMobile: false };

function measure(): Pick<DeviceState, 'width' | 'height' | 'isMobile'> {
  if (typeof window === 'undefined') return SERVER_WINDOW;
  const width = window.innerWidth;
  return { width, height: window.innerHeight, isMobile: width <= MOBILE_MAX_WIDTH };
}

export const useDeviceStore = create<DeviceState>()((set) => ({
  ...SERVER_WINDOW,
  refresh: () => set(measure()),
}));

// Created with what a server render sees (zustand keeps it as the initial state, which React
// uses while hydrating a server-rendered page), then given this browser's state.
useDeviceStore.setState(measure());
