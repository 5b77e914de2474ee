import type { ReactNode } from "react";

export function PageIntro({ eyebrow, title, lead, children }: { eyebrow?: string; title: string; lead?: string; children?: ReactNode }) {
  return (
    <div className="max-w-3xl">
      {eyebrow && <p className="text-sm font-semibold uppercase tracking-wide text-brand-700 dark:text-brand-300">{eyebrow}</p>}
      <h1 className="mt-2 text-3xl font-bold tracking-tight text-slate-950 sm:text-4xl dark:text-white">{title}</h1>
      {lead && <p className="mt-4 text-lg leading-8 text-slate-600 dark:text-slate-300">{lead}</p>}
      {children}
    </div>
  );
}

export function Container({ children, className = "" }: { children: ReactNode; className?: string }) {
  return <div className={`mx-auto max-w-6xl px-4 sm:px-6 ${className}`}>{children}</div>;
}

export function Prose({ html, className = "", id }: { html: string; className?: string; id?: string }) {
  return <div id={id} className={`prose ${className}`} dangerouslySetInnerHTML={{ __html: html }} />;
}
