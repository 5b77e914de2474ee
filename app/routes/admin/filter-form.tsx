import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { Button, buttonClass } from "../../components/ui/button.tsx";

/** A list page's filters: sent as the address's query, so a filtered list can be bookmarked and shared. `clear` links back to the whole list while a filter is on. */
export function FilterForm({ children, clear, className = "flex flex-col gap-4 sm:flex-row sm:items-end" }: { children: ReactNode; clear?: string | false; className?: string }) {
  return (
    <Form method="get" className={className}>
      {children}
      <div className="flex gap-3">
        <Button type="submit" variant="secondary">
          Filter
        </Button>
        {clear && (
          <Link to={clear} className={buttonClass({ variant: "secondary" })}>
            Clear
          </Link>
        )}
      </div>
    </Form>
  );
}

/** A select's options from [value, label] pairs, after an optional first one that filters nothing. */
export function Choices({ any, choices }: { any?: string; choices: readonly (readonly [value: string | number, label: string])[] }) {
  return (
    <>
      {any !== undefined && <option value="">{any}</option>}
      {choices.map(([value, label]) => (
        <option key={value} value={value}>
          {label}
        </option>
      ))}
    </>
  );
}
