/** whatwg-url implements the URL Standard's classes: the same shape as the platform's. */
declare module 'whatwg-url' {
  export const URL: typeof globalThis.URL;
  export const URLSearchParams: typeof globalThis.URLSearchParams;
}
