import { useState, type ReactNode } from 'react';
import { useFirstViewPicture } from '@shop/shared-kernel/react';
import { imageAt, pictureAttributes } from '@shop/shared-kernel/rules';

/** The product's pictures: a large one and, when there are several, thumbnails to switch. */
export function Gallery({ images, name, children }: { images: string[]; name: string; children?: ReactNode }) {
  const [index, setIndex] = useState(0);
  const current = images[index] ?? images[0];
  const main = current ? pictureAttributes(current, 'main') : null;
  // The page's largest paint: the server's head asks for it with the same attributes.
  useFirstViewPicture(main);
  return (
    <div className="cat-gallery">
      <div className="cat-gallery__main">
        {/* The page's largest paint: fetched first, as soon as the HTML names it. */}
        {main && <img {...main} alt={name} width={640} height={480} fetchPriority="high" decoding="async" />}
        {children}
      </div>
      {images.length > 1 && (
        <ul className="cat-gallery__thumbs" aria-label="Fotografie produktu">
          {images.map((image, i) => (
            <li key={image}>
              <button type="button" aria-pressed={i === index} onClick={() => setIndex(i)}>
                <img src={imageAt(image, 160)} alt={`${name}, obrázok ${i + 1}`} width={96} height={72} loading="lazy" />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
