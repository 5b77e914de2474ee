import type { InputHTMLAttributes, ReactNode } from "react";

/** A checkbox with its label beside it; the label wraps the box, so a click anywhere on it ticks it. */
export function Checkbox({ children, className, ...input }: Omit<InputHTMLAttributes<HTMLInputElement>, "type"> & { children: ReactNode }) {
  return (
    <label className={["flex items-start gap-2 text-sm text-slate-700 dark:text-slate-300", className].filter(Boolean).join(" ")}>
      <input type="checkbox" className="mt-0.5 size-4 shrink-0" {...input} />
      <span>{children}</span>
    </label>
  );
}

/**
 * The look of a radio button drawn as a card: the card (a label, or a box holding the radio and its
 * label) shows the choice and the keyboard focus of the radio inside it.
 */
export const choiceCardClass =
  "flex cursor-pointer items-start gap-3 rounded-xl border border-slate-300 p-4 has-checked:border-brand-600 has-checked:bg-brand-50 has-focus-visible:ring-2 has-focus-visible:ring-brand-500 dark:border-slate-700 dark:has-checked:border-brand-400 dark:has-checked:bg-slate-800";
