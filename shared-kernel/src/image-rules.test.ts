import { describe, expect, it } from 'vitest';
import { IMAGE_WIDTHS, imageAt, imageSrcSet } from './image-rules.ts';

describe('product picture widths', () => {
  it('asks the API for one of its widths', () => {
    expect(imageAt('/media/p/7.png', 320)).toBe('/media/p/7.png?w=320');
  });

  it('offers every width from the smallest useful one up, so the browser picks a sharp one', () => {
    expect(imageSrcSet('/media/p/7.png', 320)).toBe('/media/p/7.png?w=320 320w, /media/p/7.png?w=480 480w, /media/p/7.png?w=640 640w');
    expect(imageSrcSet('/media/p/7.png')?.split(', ')).toHaveLength(IMAGE_WIDTHS.length);
  });

  it('leaves pictures from elsewhere alone', () => {
    expect(imageAt('https://cdn.example/a.jpg', 320)).toBe('https://cdn.example/a.jpg');
    expect(imageSrcSet('https://cdn.example/a.jpg')).toBeUndefined();
  });
});
