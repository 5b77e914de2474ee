import { useEffect, useState } from "react";
import { useHydrated } from "../../lib/use-hydrated.ts";
import { Button } from "./button.tsx";

/**
 * Copies `value` to the clipboard and says so ("Copied", announced to screen readers). It needs
 * JavaScript, so it appears once the page is hydrated; the value beside it can always be selected.
 * `label` names what is copied, for screen readers ("Copy the A record's value").
 */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const hydrated = useHydrated();
  const [said, setSaid] = useState<"" | "Copied" | "Could not copy: select the text and copy it">("");

  useEffect(() => {
    if (!said) return;
    const timer = setTimeout(() => setSaid(""), 4_000);
    return () => clearTimeout(timer);
  }, [said]);

  if (!hydrated) return null;
  return (
    <span className="inline-flex items-center gap-2">
      <Button
        variant="secondary"
        size="2xs"
        onClick={() => {
          // No clipboard outside a secure context (https, localhost): that fails as a refusal does.
          Promise.resolve()
            .then(() => navigator.clipboard.writeText(value))
            .then(
            () => setSaid("Copied"),
            () => setSaid("Could not copy: select the text and copy it"),
          );
        }}
      >
        Copy<span className="sr-only"> {label}</span>
      </Button>
      <span role="status" className={`text-xs font-medium ${said === "Copied" ? "text-emerald-700 dark:text-emerald-300" : "text-red-700 dark:text-red-300"}`}>
        {said}
      </span>
    </span>
  );
}
