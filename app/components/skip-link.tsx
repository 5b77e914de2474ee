/** The first stop for a keyboard: past the header to the page's main content (on a lesson, to the lesson itself). */
export function SkipLink({ href = "#main", label = "Skip to content" }: { href?: string; label?: string }) {
  return (
    <a
      href={href}
      className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-3 focus:z-50 focus:rounded-md focus:bg-brand-700 focus:px-3 focus:py-2 focus:text-white"
    >
      {label}
    </a>
  );
}
