import { useContext } from 'react';
import { injectAreaStyles } from './area-styles.ts';
import { ServerRenderContext } from './server-render.ts';

/**
 * An area's CSS on the page: in the browser one <style data-area> in the head (once per area);
 * on the server the same element goes into the rendered head, so the first paint is styled and
 * the browser finds it there instead of adding another.
 */
export function useAreaStyles(area: string, css: string): void {
  useContext(ServerRenderContext)?.styles?.(area, css);
  injectAreaStyles(area, css);
}
