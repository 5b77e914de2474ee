import type { SVGProps } from "react";

/** A rosette with ribbons, drawn like the icons in components/icons.tsx. */
export function AwardIcon(props: SVGProps<SVGSVGElement>) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      width="1em"
      height="1em"
      {...props}
    >
      <circle cx="12" cy="9" r="6" />
      <path d="m8.5 13.9-1.5 8.1 5-3 5 3-1.5-8.1" />
      <path d="m9.5 9 1.7 1.7 3.3-3.4" />
    </svg>
  );
}
