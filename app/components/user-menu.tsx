import { useEffect, useId, useRef, useState } from "react";
import { Form, Link } from "react-router";
import type { RootData } from "../lib/seo.ts";
import { useHydrated } from "../lib/use-hydrated.ts";
import { Avatar } from "./avatar.tsx";

const accountLinks = [
  { to: "/account", label: "My account" },
  { to: "/account/courses", label: "My courses" },
  { to: "/account/courses#certificates", label: "Certificates" },
  { to: "/account/orders", label: "Orders" },
  { to: "/notes", label: "Notes" },
];

const settingsLinks = [
  { to: "/profile", label: "Profile" },
  { to: "/settings", label: "Settings" },
];

const itemClass = "menu-item";

function MenuPanel({ viewer, id, hidden }: { viewer: NonNullable<RootData["viewer"]>; id?: string; hidden?: boolean }) {
  return (
    <div
      id={id}
      hidden={hidden}
      className="absolute right-0 z-40 mt-2 w-60 rounded-xl border border-slate-200 bg-white p-2 shadow-lg dark:border-slate-700 dark:bg-slate-900"
    >
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
  );
}

const triggerClass = "flex cursor-pointer list-none items-center gap-2 rounded-full p-1 hover:bg-slate-100 dark:hover:bg-slate-800";

function Trigger({ viewer }: { viewer: NonNullable<RootData["viewer"]> }) {
  return (
    <>
      <Avatar name={viewer.name || viewer.email} image={viewer.image} />
      <span className="sr-only">Account menu for {viewer.name || viewer.email}</span>
    </>
  );
}

/**
 * The signed-in person's menu. Before (or without) JavaScript it is a <details> disclosure; once
 * hydrated it is a button with aria-expanded that shows and hides the panel, and Escape or a click
 * elsewhere closes it (Escape returns focus to the button).
 */
export function UserMenu({ viewer }: { viewer: NonNullable<RootData["viewer"]> }) {
  const container = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  // False while the server's HTML is hydrated, true right after: the <details> serves until then.
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  const panelId = useId();

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpen(false);
      button.current?.focus();
    };
    const onPointer = (event: PointerEvent) => {
      if (!container.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onPointer);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onPointer);
    };
  }, [open]);

  if (!hydrated) {
    return (
      <details className="relative">
        <summary className={triggerClass}>
          <Trigger viewer={viewer} />
        </summary>
        <MenuPanel viewer={viewer} />
      </details>
    );
  }
  return (
    <div ref={container} className="relative">
      <button ref={button} type="button" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen(!open)} className={triggerClass}>
        <Trigger viewer={viewer} />
      </button>
      <MenuPanel viewer={viewer} id={panelId} hidden={!open} />
    </div>
  );
}
