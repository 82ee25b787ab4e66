import { describe, expect, it } from 'vitest';
import { IMAGE_WIDTHS, imageAt, imageSrcSet, pictureAttributes } from './image-rules.ts';

describe('product picture widths', () => {
  it('asks the API for one of its widths', () => {
    expect(imageAt('/media/p/7.png', 320)).toBe('/media/p/7.png?w=320');
  });

  it('offers every width from the smallest useful one up, so the browser picks a sharp one', () => {
    expect(imageSrcSet('/media/p/7.png', 320)).toBe('/media/p/7.png?w=320 320w, /media/p/7.png?w=480 480w, /media/p/7.png?w=640 640w');
    expect(imageSrcSet('/media/p/7.png')?.split(', ')).toHaveLength(IMAGE_WIDTHS.length);
  });

  it('gives a card and the main picture the same choice of widths, each with its own fallback and layout', () => {
    expect(pictureAttributes('/media/p/7.png', 'card')).toEqual({
      src: '/media/p/7.png?w=320',
      srcSet: '/media/p/7.png?w=320 320w, /media/p/7.png?w=480 480w, /media/p/7.png?w=640 640w',
      sizes: '(min-width: 800px) 18rem, 50vw',
    });
    expect(pictureAttributes('/media/p/7.png', 'main')).toMatchObject({
      src: '/media/p/7.png?w=640',
      sizes: '(min-width: 800px) 36rem, 100vw',
    });
  });

  it('leaves pictures from elsewhere alone', () => {
    expect(imageAt('https://cdn.example/a.jpg', 320)).toBe('https://cdn.example/a.jpg');
    expect(imageSrcSet('https://cdn.example/a.jpg')).toBeUndefined();
  });
});
