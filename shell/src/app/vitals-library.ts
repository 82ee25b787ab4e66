/**
 * Google's web-vitals (attribution build) behind a module of the shell's own: the shell imports it
 * lazily (vitals.ts), and as a split-off chunk of src/ it stays out of the boot's preload list
 * (vite.config.ts), so the first load carries none of it.
 */
export { onCLS, onFCP, onINP, onLCP, onTTFB } from 'web-vitals/attribution';
