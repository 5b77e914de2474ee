/**
 * The look of a card: a rounded, bordered box; `raised` puts it on a white (dark: slate) surface
 * with a shadow. `className` adds padding and layout. A class list rather than a component, because
 * cards are articles, sections, list items and lists as often as they are boxes.
 */
export function cardClass({ raised = false, className }: { raised?: boolean; className?: string } = {}): string {
  return [
    "rounded-2xl border border-slate-200 dark:border-slate-800",
    raised && "bg-white shadow-sm dark:bg-slate-900",
    className,
  ]
    .filter(Boolean)
    .join(" ");
}
