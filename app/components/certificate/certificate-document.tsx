import { formatDay } from "../../../common/format.ts";
import type { CertificateFace } from "../../../common/view-types.ts";
import { AwardIcon } from "../icons.tsx";
import { cardClass } from "../ui/card.tsx";

const muted = "text-slate-600 dark:text-slate-400 print:text-slate-700";
const strong = "text-slate-950 dark:text-white print:text-black";
const label = `text-xs font-semibold uppercase tracking-wider ${muted}`;

/** The certificate as a framed sheet: A4 landscape proportions on wide screens and on paper, a plain card on phones. */
export function CertificateDocument({ certificate: c }: { certificate: CertificateFace }) {
  return (
    <article
      aria-labelledby="certificate-heading"
      className={cardClass({ raised: true, className: "relative flex flex-col overflow-hidden px-6 py-12 text-center sm:px-14 lg:aspect-[297/210] print:h-[190mm] print:rounded-none print:border-0 print:bg-white print:px-16 print:py-14 print:shadow-none" })}
    >
      <div aria-hidden="true" className="pointer-events-none absolute inset-2 rounded-xl border-2 border-brand-300 sm:inset-3 dark:border-brand-700 print:inset-0 print:rounded-none print:border-brand-400" />
      <div aria-hidden="true" className="pointer-events-none absolute inset-3.5 rounded-lg border border-brand-200 sm:inset-5 dark:border-brand-900 print:inset-2 print:rounded-none print:border-brand-300" />

      <div className="relative flex flex-1 flex-col items-center justify-between gap-10 print:gap-6">
        <header>
          <p className="text-sm font-semibold uppercase tracking-[0.3em] text-brand-700 dark:text-brand-300 print:text-brand-800">{c.issuer.name}</p>
          <h1 id="certificate-heading" className={`mt-3 font-serif text-3xl tracking-tight sm:text-5xl ${strong}`}>
            Certificate of completion
          </h1>
        </header>

        <div className="w-full">
          <p className={`text-sm uppercase tracking-widest ${muted}`}>This certifies that</p>
          <p className={`mt-4 break-words font-serif text-4xl font-semibold italic sm:text-5xl ${strong}`}>{c.learnerName}</p>
          <div aria-hidden="true" className="mx-auto mt-5 h-px w-2/3 max-w-md bg-brand-300 dark:bg-brand-700 print:bg-brand-400" />
          <p className={`mt-5 ${muted}`}>has successfully completed the course</p>
          <p className={`mt-2 text-xl font-semibold sm:text-2xl ${strong}`}>{c.courseTitle}</p>
        </div>

        <div className="grid w-full items-end gap-8 sm:grid-cols-[1fr_auto_1fr]">
          <dl className="sm:max-w-64 sm:text-left">
            {c.instructor && (
              <div>
                <dt className="sr-only">Instructor</dt>
                <dd className={`border-b border-slate-300 pb-1 font-serif text-lg italic dark:border-slate-600 print:border-slate-400 ${strong}`}>{c.instructor.name}</dd>
                <dd className={`mt-1 text-xs ${muted}`}>{c.instructor.role}, instructor</dd>
              </div>
            )}
            <div className="mt-4">
              <dt className={label}>Issued on</dt>
              <dd className={`mt-1 font-medium ${strong}`}>{formatDay(c.issuedAt)}</dd>
            </div>
          </dl>
          <div aria-hidden="true" className="order-first mx-auto flex size-24 items-center justify-center rounded-full border-4 border-double border-brand-400 text-brand-600 sm:order-none dark:border-brand-600 dark:text-brand-300 print:border-brand-500 print:text-brand-700">
            <AwardIcon className="size-12" />
          </div>
          <dl className="sm:text-right">
            <dt className={label}>Certificate ID</dt>
            <dd className={`mt-1 font-mono text-sm font-semibold tracking-wide ${strong}`}>{c.id}</dd>
          </dl>
        </div>

        <p className={`max-w-2xl text-xs leading-5 ${muted}`}>
          This certificate was issued by {c.issuer.legalName} ({c.issuer.name}). Anyone can verify it at{" "}
          <a href={c.verifyUrl} className="break-all font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300 print:text-black print:no-underline">
            {c.verifyUrl}
          </a>
          .
        </p>
      </div>
    </article>
  );
}
