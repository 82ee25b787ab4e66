/**
 * '@shop/shared-kernel/react': stateless React hooks and components, and page
 * helpers, that every part bundles itself (not shared by Module Federation, so
 * a page loads only what it uses; hooks run on the one shared React).
 *
 * Nothing here may import what must be one on the page (a store, the API
 * client, the routing context): inside the kernel package such an import stays
 * local in an area's build, i.e. a second copy. The helpers that need those
 * (PaginationNav, usePaymentRetry, useInvoiceDownload) are exported by the
 * singleton, '@shop/shared-kernel'. entries.test.ts checks this.
 */
export { useResource, dataOf } from './use-resource.ts';
export type { Resource, ResourceOptions, ResourceSource, ResourceState } from './use-resource.ts';
export { LoadFailed } from './load-failed.tsx';
export { useSubmit } from './use-submit.ts';
export { usePageMeta, documentTitle, SHOP_NAME } from './use-page-meta.ts';
export { useJsonLd } from './use-json-ld.ts';
export { useFirstViewPicture } from './use-first-view-picture.ts';
export { TextField } from './text-field.tsx';
export type { TextFieldProps } from './text-field.tsx';
export { injectAreaStyles } from './area-styles.ts';
export { TRUSTED_TYPES_POLICY, tagManagerScriptUrl, trustedHtml, trustedJsonScript, trustedScriptUrl } from './trusted-types.ts';
export { useAreaStyles } from './use-area-styles.ts';
export { usePublicOrigin } from './use-public-origin.ts';
export { useHydrated } from './use-hydrated.ts';
export { useServerBasket } from './use-server-basket.ts';
export { useAfterHydration } from './use-after-hydration.ts';
export { ServerRenderContext, SERVER_DATA_ID, readEmbeddedServerData } from './server-render.ts';
export type { ServerRender, SettledLoad, PageMetaInput, PagePicture, EmbeddedServerData } from './server-render.ts';
