/**
 * Product pictures come in a few fixed widths (the API draws only these, so a cache holds a
 * bounded set): `?w=` on a picture's address picks one, and `srcset` lets the browser choose
 * the smallest that is sharp on its screen.
 */
export const IMAGE_WIDTHS = [160, 320, 480, 640] as const;
export type ImageWidth = (typeof IMAGE_WIDTHS)[number];

/** The widest drawing, answered when no width is asked for. */
export const IMAGE_DEFAULT_WIDTH: ImageWidth = 640;

/** A picture's address at one width (addresses that are not the API's pictures are left as they are). */
export function imageAt(url: string, width: ImageWidth): string {
  return url.startsWith('/media/') ? `${url}?w=${width}` : url;
}

/** `srcset` over the widths from `min` up (undefined for a picture the API does not draw). */
export function imageSrcSet(url: string, min: ImageWidth = 160): string | undefined {
  if (!url.startsWith('/media/')) return undefined;
  return IMAGE_WIDTHS.filter((width) => width >= min)
    .map((width) => `${imageAt(url, width)} ${width}w`)
    .join(', ');
}

/**
 * How wide a picture is laid out (the `sizes` its `<img>` and the server's preload both give, so the
 * browser picks the same width for both): a card is half a phone's screen or about 18rem beside
 * others; the product's main picture is the screen's width on a phone, half the page from 800px.
 */
export const IMAGE_SIZES = {
  card: '(min-width: 800px) 18rem, 50vw',
  main: '(min-width: 800px) 36rem, 100vw',
} as const;

/**
 * What an `<img>` of a product picture says (and the server's preload of the main one repeats):
 * its fallback address, the widths to choose from (320 px up; smaller ones are for thumbnails) and
 * how wide it is laid out.
 */
export function pictureAttributes(
  url: string,
  layout: keyof typeof IMAGE_SIZES,
): { src: string; srcSet: string | undefined; sizes: string } {
  return { src: imageAt(url, layout === 'main' ? IMAGE_DEFAULT_WIDTH : 320), srcSet: imageSrcSet(url, 320), sizes: IMAGE_SIZES[layout] };
}
