import { useEffect, useId, useRef, useState } from "react";
import { Form, Link } from "react-router";
import type { RootData } from "../lib/seo.ts";
import { initials } from "../lib/format.ts";

const accountLinks = [
  { to: "/account", label: "My account" },
  { to: "/account/courses", label: "My courses" },
  { to: "/account/orders", label: "Orders" },
  { to: "/notes", label: "Notes" },
];

const settingsLinks = [
  { to: "/profile", label: "Profile" },
  { to: "/settings", label: "Settings" },
];

const itemClass = "block rounded-md px-3 py-2 text-sm text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800";

/**
 * The signed-in person's menu: a <details> disclosure, so it opens before (or without) JavaScript;
 * once hydrated its summary is a button that says whether it is expanded, and Escape or a click
 * elsewhere closes it (Escape returns focus to the button).
 */
export function UserMenu({ viewer }: { viewer: NonNullable<RootData["viewer"]> }) {
  const details = useRef<HTMLDetailsElement>(null);
  const summary = useRef<HTMLElement>(null);
  const [open, setOpen] = useState(false);
  const panelId = useId();

  useEffect(() => {
    if (!open) return;
    const close = () => {
      if (details.current) details.current.open = false;
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      close();
      summary.current?.focus();
    };
    const onPointer = (event: PointerEvent) => {
      if (!details.current?.contains(event.target as Node)) close();
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onPointer);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onPointer);
    };
  }, [open]);

  return (
    <details ref={details} className="group relative" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary
        ref={summary}
        role="button"
        aria-expanded={open}
        aria-controls={panelId}
        className="flex cursor-pointer list-none items-center gap-2 rounded-full p-1 hover:bg-slate-100 dark:hover:bg-slate-800"
      >
        <span aria-hidden="true" className="grid size-8 place-items-center rounded-full bg-brand-600 text-xs font-bold text-white">
          {initials(viewer.name || viewer.email)}
        </span>
        <span className="sr-only">Account menu for {viewer.name || viewer.email}</span>
      </summary>
      <div id={panelId} className="absolute right-0 z-40 mt-2 w-60 rounded-xl border border-slate-200 bg-white p-2 shadow-lg dark:border-slate-700 dark:bg-slate-900">
        <p className="truncate px-3 py-2 text-sm">
          <span className="block font-semibold text-slate-950 dark:text-white">{viewer.name}</span>
          <span className="block truncate text-slate-600 dark:text-slate-400">{viewer.email}</span>
        </p>
        <hr className="my-1 border-slate-200 dark:border-slate-700" />
        {accountLinks.map((link) => (
          <Link key={link.to} to={link.to} className={itemClass}>
            {link.label}
          </Link>
        ))}
        <hr className="my-1 border-slate-200 dark:border-slate-700" />
        {settingsLinks.map((link) => (
          <Link key={link.to} to={link.to} className={itemClass}>
            {link.label}
          </Link>
        ))}
        <Form method="post" action="/logout">
          <button type="submit" className={`${itemClass} w-full text-left`}>
            Sign out
          </button>
        </Form>
      </div>
    </details>
  );
}
