import { data, isRouteErrorResponse, Link, useParams } from "react-router";
import { coursePlayerPath } from "../../../server/commerce/index.ts";
import { appServices, requireViewer, viewerContext } from "../../../server/context.ts";
import { attempt } from "../../../server/errors.ts";
import { certificateFace, correctCertificateName, findCertificate, issuedCertificateIds, unprintableCharacters } from "../../../server/learning/index.ts";
import { certificatePdfPath } from "../../components/certificate/certificate-action.tsx";
import { CertificateDocument } from "../../components/certificate/certificate-document.tsx";
import { NameCorrection } from "../../components/certificate/name-correction.tsx";
import printStylesheet from "../../components/certificate/print.css?url";
import { ArrowLeftIcon, DownloadIcon } from "../../components/icons.tsx";
import { Container } from "../../components/page-intro.tsx";
import { StatusBadge } from "../../components/status-badge.tsx";
import { formatDay } from "../../../common/format.ts";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/certificate";
import { Button, ButtonLink } from "../../components/ui/button.tsx";
import { z } from "zod";
import { attemptFor, readForm, succeed } from "../forms.server.ts";

// Only for printing, so it never holds up the first paint.
export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: printStylesheet, media: "print" }];

/** Public: the certificate ID is the secret that shows it. Nothing about the holder's account leaves the server. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { catalog, cipher, db, publicUrl } = context.get(appServices);
  const found = await attempt(() => findCertificate(db, cipher, params.certificateId));
  if (!found.ok) throw data(null, { status: found.status });
  const certificate = found.value;
  // A revoked certificate certifies nothing, so its page names no one: only what was revoked, and when.
  if (certificate.revokedAt) {
    return {
      revoked: { id: certificate.id, courseTitle: certificate.courseTitle, issuedAt: certificate.issuedAt, revokedAt: certificate.revokedAt, issuer: { name: catalog.site.name } },
      certificate: null,
      coursePath: null,
      pdf: null,
      correction: null,
    };
  }
  const viewer = context.get(viewerContext);
  const own = viewer ? (await issuedCertificateIds(db, viewer.id, [certificate.courseId])).get(certificate.courseId) : undefined;
  const holder = own === certificate.id;
  const face = certificateFace(catalog, publicUrl, certificate);
  return {
    revoked: null,
    certificate: { ...face, nameCorrectedAt: certificate.nameCorrectedAt },
    // The holder gets a way back to the course, the PDF and the name correction; everyone else sees only the certificate.
    coursePath: holder && catalog.courses.some((c) => c.id === certificate.courseId) ? coursePlayerPath(certificate.courseId) : null,
    pdf: holder ? { path: certificatePdfPath(certificate.id), unprintable: await unprintableCharacters(face) } : null,
    correction: holder ? { currentName: certificate.learnerName, correctedAt: certificate.nameCorrectedAt, supportEmail: catalog.site.email } : null,
  };
}

// The name is checked by correctCertificateName, with the profile's rules.
const correctionForm = z.object({ intent: z.literal("correct-name"), name: z.unknown() });

/** The holder's one name correction; the domain refuses anyone else, a second change and a bad name. */
export async function action({ params, request, context }: Route.ActionArgs) {
  const viewer = requireViewer(context);
  const { catalog, cipher, db } = context.get(appServices);
  const form = await readForm(request, correctionForm);
  if (!form.ok) return form.reply;
  const corrected = await attemptFor(form, () => correctCertificateName({ db, cipher, catalog }, viewer.id, params.certificateId, form.value.name, new Date()));
  return corrected.ok ? succeed(form) : corrected.reply;
}

export const meta: Route.MetaFunction = (args) => {
  const { certificate: c, revoked: r } = args.loaderData ?? { certificate: null, revoked: null };
  const page = c
    ? { title: `Certificate: ${c.learnerName} · ${c.courseTitle}`, description: `${c.learnerName} completed ${c.courseTitle}. Certificate ${c.id}, issued by ${c.issuer.name}.` }
    : r
      ? { title: `Revoked certificate · ${r.courseTitle}`, description: `Certificate ${r.id} for ${r.courseTitle} was revoked by ${r.issuer.name}.` }
      : { title: "Certificate not found", description: "No certificate has this ID." };
  return [...pageMeta(args, page), { name: "robots", content: "noindex" }];
};

export default function CertificatePage({ loaderData, actionData }: Route.ComponentProps) {
  const { certificate: c, revoked, coursePath, pdf, correction } = loaderData;
  if (!c) {
    return revoked && <RevokedCertificate certificate={revoked} />;
  }
  return (
    <Container className="max-w-5xl py-8 sm:py-12 print:max-w-none print:p-0">
      <div className="flex flex-wrap items-center justify-between gap-4 print:hidden">
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
          {coursePath && (
            <Link to={coursePath} className="inline-flex items-center gap-1.5 text-sm font-medium text-slate-600 hover:text-slate-950 dark:text-slate-400 dark:hover:text-white">
              <ArrowLeftIcon className="size-4" />
              Back to the course
            </Link>
          )}
          <p className="flex flex-wrap items-center gap-2 text-sm text-slate-600 dark:text-slate-400">
            <StatusBadge tone="success">Verified</StatusBadge>
            Issued by {c.issuer.name} on {formatDay(c.issuedAt)}
            {c.nameCorrectedAt && <> · name corrected on {formatDay(c.nameCorrectedAt)}</>}
          </p>
        </div>
        <div className="flex flex-wrap gap-3">
          {pdf && pdf.unprintable.length === 0 && (
            <ButtonLink to={pdf.path} reloadDocument className="inline-flex items-center gap-1.5">
              <DownloadIcon className="size-4" /> Download PDF
            </ButtonLink>
          )}
          <Button type="button" variant={pdf && pdf.unprintable.length === 0 ? "secondary" : "primary"} onClick={() => window.print()}>
            Print or save as PDF
          </Button>
        </div>
      </div>
      {pdf && pdf.unprintable.length > 0 && (
        <p className="mt-4 text-sm text-slate-600 print:hidden dark:text-slate-400">
          We cannot make a PDF file of this certificate: our PDF font has no letters for {pdf.unprintable.join(" ")}. Use "Print or save as PDF" instead: your
          browser draws it with your device's fonts.
        </p>
      )}
      <div className="mt-6 print:mt-0">
        <CertificateDocument certificate={c} />
      </div>
      {correction && <NameCorrection state={correction} result={actionData} />}
    </Container>
  );
}

interface RevokedFace {
  id: string;
  courseTitle: string;
  issuedAt: Date;
  revokedAt: Date;
  issuer: { name: string };
}

function RevokedCertificate({ certificate: r }: { certificate: RevokedFace }) {
  return (
    <Container className="max-w-3xl py-16 sm:py-24">
      <StatusBadge tone="danger">Revoked</StatusBadge>
      <h1 className="mt-4 text-3xl font-bold tracking-tight text-slate-950 sm:text-4xl dark:text-white">This certificate was revoked</h1>
      <div className="mt-4 space-y-4 text-lg text-slate-600 dark:text-slate-300">
        <p>
          Certificate <span className="break-all font-mono font-semibold text-slate-950 dark:text-white">{r.id}</span> for {r.courseTitle} was issued by {r.issuer.name} on{" "}
          {formatDay(r.issuedAt)} and revoked on {formatDay(r.revokedAt)}, when the course was refunded.
        </p>
        <p>It no longer certifies that anyone completed the course.</p>
      </div>
      <ButtonLink to="/courses" className="mt-8 inline-block">
        Browse our courses
      </ButtonLink>
    </Container>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { certificateId } = useParams();
  const missing = isRouteErrorResponse(error) && error.status === 404;
  return (
    <Container className="max-w-3xl py-16 sm:py-24">
      <p className="text-sm font-semibold text-brand-700 dark:text-brand-300">{missing ? "404" : "Error"}</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight text-slate-950 sm:text-4xl dark:text-white">
        {missing ? "We couldn't find that certificate" : "We could not show this certificate"}
      </h1>
      {missing ? (
        <div className="mt-4 space-y-4 text-lg text-slate-600 dark:text-slate-300">
          <p>
            No certificate has the ID <span className="break-all font-mono font-semibold text-slate-950 dark:text-white">{certificateId}</span>.
          </p>
          <p>
            Check it against the one printed at the foot of the certificate: IDs look like <span className="whitespace-nowrap font-mono">AC-7KQ3-M9XD-2HPV-T4NE</span>, and
            letters may be typed in either case. If it still does not match, the certificate was not issued by us.
          </p>
        </div>
      ) : (
        <p className="mt-4 text-lg text-slate-600 dark:text-slate-300">Please try again in a moment; if it keeps happening, write to us from the help page.</p>
      )}
      <ButtonLink to="/courses" className="mt-8 inline-block">
        Browse our courses
      </ButtonLink>
    </Container>
  );
}
