/**
 * Adds an area's CSS to the page once: one <style data-area="…"> in
 * document.head per area. A no-op outside a browser.
 */
export function injectAreaStyles(area: string, css: string): void {
  if (typeof document === 'undefined') return;
  for (const style of document.head.querySelectorAll('style[data-area]')) {
    if (style.getAttribute('data-area') === area) return;
  }
  const style = document.createElement('style');
  style.setAttribute('data-area', area);
  style.textContent = css;
  document.head.appendChild(style);
}
