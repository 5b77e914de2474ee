/**
 * What an SVG drawn for the content may contain: shapes, gradients and styling, nothing that runs,
 * loads or embeds. Refused rather than cleaned, so what is served is byte for byte what was reviewed.
 */
const forbidden: [RegExp, string][] = [
  [/<script/i, "a <script> element"],
  [/<foreignObject/i, "a <foreignObject> element"],
  [/<!(DOCTYPE|ENTITY)/i, "a DOCTYPE or entity declaration"],
  [/<\?xml-stylesheet/i, "an external stylesheet"],
  [/\son[a-z]+\s*=/i, "an event handler attribute"],
  [/javascript:/i, "a javascript: address"],
  [/(?:xlink:)?href\s*=\s*["'](?!#)/i, "a link to anything outside the drawing"],
  [/url\(\s*["']?(?!#)/i, "a url() to anything outside the drawing"],
  [/@import/i, "an @import"],
  [/<(?:image|iframe|embed|object|animate|set|a)\b/i, "an element that loads, links or animates"],
];

export interface SvgSize {
  width: number;
  height: number;
}

/** The drawing's width and height from its root element; throws with what is wrong with it. */
export function checkSvg(source: string): SvgSize {
  for (const [pattern, what] of forbidden) {
    if (pattern.test(source)) throw new Error(`contains ${what}`);
  }
  const root = /^\s*(?:<\?xml[^>]*\?>\s*)?<svg\b([^>]*)>/.exec(source);
  if (!root) throw new Error("is not an SVG drawing (the file must start with <svg>)");
  const attribute = (name: string) => new RegExp(`\\s${name}="(\\d+)"`).exec(root[1] ?? "")?.[1];
  const width = Number(attribute("width"));
  const height = Number(attribute("height"));
  if (!(width > 0 && height > 0)) throw new Error('needs whole-number width="…" and height="…" on <svg>, so pages can reserve its space');
  return { width, height };
}
