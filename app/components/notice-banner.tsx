import { useState } from "react";
import { CheckIcon } from "./icons.tsx";

/** A one-time confirmation at the top of the page ("E-mail verified"), announced and dismissible. */
export function NoticeBanner({ message }: { message: string }) {
  const [open, setOpen] = useState(true);
  if (!open) return null;
  return (
    <div className="border-b border-emerald-200 bg-emerald-50 dark:border-emerald-900 dark:bg-emerald-950/60">
      <div className="mx-auto flex max-w-7xl items-center gap-3 px-4 py-3 sm:px-6">
        <CheckIcon aria-hidden="true" className="size-5 shrink-0 text-emerald-700 dark:text-emerald-300" />
        <p role="status" className="flex-1 text-sm font-medium text-emerald-900 dark:text-emerald-100">
          {message}
        </p>
        <button
          type="button"
          onClick={() => setOpen(false)}
          className="rounded-full px-3 py-1 text-sm font-medium text-emerald-800 hover:bg-emerald-100 dark:text-emerald-200 dark:hover:bg-emerald-900"
        >
          Dismiss
        </button>
      </div>
    </div>
  );
}
