import { describe, expect, it } from 'vitest';
import { productLook, productSvg } from '../../src/domains/catalog/media/product-image.ts';

describe('product pictures tell products apart', () => {
  it('draw what the product is, in its colour, with its size, even within one category', () => {
    const brick = productSvg('Tehla Porotherm 30 Profi', 'hruba-stavba', 'hruba-stavba murovacie-materialy');
    const chimney = productSvg('Komínový systém Schiedel Rondo Plus 200 mm', 'hruba-stavba', 'hruba-stavba kominy');
    const screed = productSvg('Poter Baumit 25 kg', 'hruba-stavba', 'hruba-stavba suche-zmesi');
    expect(new Set([brick, chimney, screed]).size).toBe(3);
    expect(productLook('Komínový systém Schiedel', 'hruba-stavba kominy').pictogram('#000')).toContain('<rect x="80" y="30"');
    expect(productLook('Obklad Rako Up 30 × 60 béžová', 'dlazby-a-obklady')).toMatchObject({ colour: '#d8c3a0', size: '30 × 60' });
    expect(productLook('Farba Primalex Plus biela 15 kg', 'farby-a-laky')).toMatchObject({ colour: '#f4f4f0', size: '15 kg' });
    expect(productSvg('Obklad Rako Up 30 × 60 béžová', 'dlazby-a-obklady')).toContain('>30 × 60</text>');
    expect(productSvg('Obklad Rako Up 30 × 60 biela', 'dlazby-a-obklady')).not.toBe(
      productSvg('Obklad Rako Up 30 × 60 béžová', 'dlazby-a-obklady'),
    );
  });

  it('escape what they write', () => {
    expect(productSvg('Doska <script> 12 mm', 'suche-stavby')).not.toContain('<script>');
  });
});
