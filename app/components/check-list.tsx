import { CheckIcon } from "./icons.tsx";

/** A list of ticked items: outcomes, features, results. */
export function CheckList({ items, small = false, className = "" }: { items: string[]; small?: boolean; className?: string }) {
  return (
    <ul className={`${small ? "text-sm" : ""} text-slate-700 dark:text-slate-300 ${className}`}>
      {items.map((item) => (
        <li key={item} className={`flex ${small ? "gap-2" : "gap-3"}`}>
          <CheckIcon className={`${small ? "mt-0.5" : "mt-1"} size-4 shrink-0 text-emerald-600 dark:text-emerald-400`} />
          <span>{item}</span>
        </li>
      ))}
    </ul>
  );
}
