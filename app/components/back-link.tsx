import type { MouseEvent } from "react";
import { Link, useNavigate } from "react-router";
import { ArrowLeftIcon } from "./icons.tsx";

/**
 * Returns to the previous browser page when this visit came from inside the site; otherwise goes
 * to `fallback` (the parent list). Without JavaScript it is a plain link to `fallback`.
 */
export function BackLink({ fallback, label }: { fallback: string; label: string }) {
  const navigate = useNavigate();
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0) {
      event.preventDefault();
      void navigate(-1);
    }
  };
  return (
    <Link
      to={fallback}
      onClick={onClick}
      className="inline-flex items-center gap-1.5 text-sm font-medium text-slate-600 hover:text-slate-950 dark:text-slate-400 dark:hover:text-white"
    >
      <ArrowLeftIcon className="size-4" />
      {label}
    </Link>
  );
}
