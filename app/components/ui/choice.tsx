import { type InputHTMLAttributes, type ReactNode, type RefObject, useEffect } from "react";

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

/**
 * Tells `onSelect` which radio named `name` inside `group` is checked once the page's script has
 * arrived: uncontrolled radios keep a choice made before then, and the page's own state catches up.
 */
export function useRadioCheckedBeforeHydration(group: RefObject<HTMLElement | null>, name: string, onSelect?: (value: string) => void) {
  useEffect(() => {
    const picked = group.current?.querySelector<HTMLInputElement>(`input[name="${name}"]:checked`);
    if (picked) onSelect?.(picked.value);
  }, [group, name, onSelect]);
}
