/**
 * The scripts a page's first render needs are listed in its HTML (a JSON array of URLs in the
 * `<script type="application/json">` with this id, written by the shop's server for the page's
 * area) and fetched once the page has painted, together with the shell's own, by index.html's
 * loader; none is discovered late, and none competes with the HTML and the main picture.
 */
export const BOOT_PRELOAD_ID = 'shop-boot-preload';
