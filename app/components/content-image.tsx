/** A drawing from content/ as the catalogue describes it: its address, words and size. */
export interface ContentPicture {
  src: string;
  alt: string;
  width: number;
  height: number;
}

/**
 * An <img> (never inline SVG, so nothing in the file can run) with the drawing's own width and
 * height, so the page keeps its space while it loads.
 */
export function ContentImage({ picture, className = "", eager = false }: { picture: ContentPicture; className?: string; eager?: boolean }) {
  return (
    <img
      src={picture.src}
      alt={picture.alt}
      width={picture.width}
      height={picture.height}
      loading={eager ? "eager" : "lazy"}
      decoding="async"
      className={`h-auto ${className}`}
    />
  );
}
