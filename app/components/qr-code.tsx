import { encode } from "uqr";

/** A QR code drawn as SVG on the server (nothing to load), dark modules on a white quiet zone in either theme so phones read it. */
export function QrCode({ text, label }: { text: string; label: string }) {
  const { data, size } = encode(text, { border: 2 });
  const modules = data.flatMap((row, y) => row.flatMap((dark, x) => (dark ? [`M${x} ${y}h1v1h-1z`] : [])));
  return (
    <svg viewBox={`0 0 ${size} ${size}`} role="img" aria-label={label} className="h-48 w-48 shrink-0 rounded-lg bg-white" shapeRendering="crispEdges">
      <path d={modules.join("")} fill="#000" />
    </svg>
  );
}
