import { data, isRouteErrorResponse, redirect, useParams } from "react-router";
import { coursePlayerPath } from "../../../server/commerce/index.ts";
import { appServices, requireViewer } from "../../../server/context.ts";
import { attempt } from "../../../server/errors.ts";
import { findCourse, issueCertificate, issuedCertificateIds } from "../../../server/learning/index.ts";
import { certificatePath } from "../../components/certificate/certificate-action.tsx";
import { ArrowLeftIcon } from "../../components/icons.tsx";
import { NotFound } from "../../components/not-found.tsx";
import { Container } from "../../components/page-intro.tsx";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/learn-certificate";
import { ButtonLink } from "../../components/ui/button.tsx";

/** Only ever the signed-in learner's own certificate: the page it lives on, or the course home until there is one. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const viewer = requireViewer(context);
  const { catalog, db } = context.get(appServices);
  const known = await attempt(async () => findCourse(catalog, params.courseId));
  if (!known.ok) throw data(null, { status: 404 });
  const id = (await issuedCertificateIds(db, viewer.id, [known.value.id])).get(known.value.id);
  throw redirect(id ? certificatePath(id) : coursePlayerPath(known.value.id));
}

/** Issues the certificate (or finds the one issued) and opens it; a refusal is shown by the boundary below. */
export async function action({ params, context }: Route.ActionArgs) {
  const viewer = requireViewer(context);
  const { catalog, cipher, db, logger } = context.get(appServices);
  const issued = await attempt(() => issueCertificate({ db, cipher, logger, catalog }, viewer.id, params.courseId));
  if (!issued.ok) throw data(issued.status === 404 ? null : issued.message, { status: issued.status });
  throw redirect(certificatePath(issued.value.id));
}

// The not-found page names itself; a refusal gets its own title.
export const meta: Route.MetaFunction = (args) =>
  isRouteErrorResponse(args.error) && args.error.status === 404
    ? []
    : [...pageMeta(args, { title: "Certificate not issued", description: "Why we could not issue your certificate yet." }), { name: "robots", content: "noindex" }];

// Never shown (the loader always redirects), but a route without a component is a resource route, which has no error page.
export default function IssueCertificate() {
  return null;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { courseId = "" } = useParams();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  const message = isRouteErrorResponse(error) && typeof error.data === "string" ? error.data : "Something went wrong. Please try again in a moment.";
  return (
    <Container className="max-w-3xl py-16 sm:py-24">
      <h1 className="text-3xl font-bold tracking-tight text-slate-950 sm:text-4xl dark:text-white">We could not issue your certificate</h1>
      <p role="alert" className="mt-4 text-lg text-slate-600 dark:text-slate-300">
        {message}
      </p>
      <ButtonLink
        to={`/courses/${courseId}/MainPage`}
        className="mt-8 inline-flex items-center gap-1.5"
      >
        <ArrowLeftIcon className="size-4" />
        Back to the course home
      </ButtonLink>
    </Container>
  );
}
