/**
 * Adds an area's CSS to the page once per area. A no-op outside a browser.
 *
 * The pages' policy has no `'unsafe-inline'` for styles: a `<style>` element a script adds is
 * refused unless its hash is in the page's policy, which a browser-rendered page's cannot know.
 * So the CSS goes in as a constructed stylesheet (`adoptedStyleSheets`), which the policy does not
 * govern (it is the stylesheet object model, as setting `element.style` is). A page the server
 * rendered already has the area's `<style data-area>` in its head, admitted by its hash: then
 * nothing is added. Constructed stylesheets cascade after the document's own, as a `<style>`
 * appended to the head would. A browser without them (older than 2023) gets the `<style>`, which
 * the policy then refuses and reports.
 */
const KEY = Symbol.for('@shop/shared-kernel/area-styles');
type Holder = { [KEY]?: Set<string> };

export function injectAreaStyles(area: string, css: string): void {
  if (typeof document === 'undefined') return;
  for (const style of document.head.querySelectorAll('style[data-area]')) {
    if (style.getAttribute('data-area') === area) return;
  }
  // Kept on the document: every part bundles this module, each area adds its own styles once.
  const added = ((document as unknown as Holder)[KEY] ??= new Set<string>());
  if (added.has(area)) return;
  added.add(area);
  if (typeof CSSStyleSheet === 'function' && 'adoptedStyleSheets' in document && 'replaceSync' in CSSStyleSheet.prototype) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    return;
  }
  const style = document.createElement('style');
  style.setAttribute('data-area', area);
  style.textContent = css;
  document.head.appendChild(style);
}
