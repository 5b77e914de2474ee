import { isRouteErrorResponse, Link } from "react-router";
import { Container } from "./page-intro.tsx";
import { ButtonLink } from "./ui/button.tsx";

const suggestions = [
  { to: "/", label: "Home", text: "Start again from the front page." },
  { to: "/courses", label: "Courses", text: "Browse every course we teach." },
  { to: "/services", label: "Services", text: "Websites, hosting, training and cloud work." },
  { to: "/help", label: "Help centre", text: "Answers to common questions, and how to reach us." },
];

/** What each error page is called, and what it says when the server gave no sentence of its own. */
const errorTexts: Record<number, { title: string; message: string }> = {
  400: { title: "We could not read that request", message: "Nothing was changed. Go back to the page, reload it and try again." },
  403: { title: "That request was refused", message: "Nothing was changed. Go back to the page, reload it and try again." },
  405: { title: "That page cannot do that", message: "Nothing was changed. Go back to the page, reload it and try again." },
  410: { title: "No longer available", message: "It has been taken down. Browse what we offer now." },
  413: { title: "That upload is too large", message: "Nothing was changed. Choose a smaller file and try again." },
  415: { title: "We could not read that request", message: "Nothing was changed. Go back to the page, reload it and try again." },
  429: { title: "Too many requests", message: "Please wait a few minutes before trying again." },
};

const serverFailure = {
  title: "Something went wrong on our side",
  message: "We could not show this page. Please try again in a moment; if it keeps happening, write to us from the help centre.",
};

/**
 * The page for an error a route threw: a 404 as "not found", any other refusal with the sentence
 * it carries ({ message } from a route, plain text from the HTTP layer). A failure's own text is not
 * shown: it may be a proxy's or a crash's, and the page's words say enough. `inArea` draws it inside
 * an area's own heading and navigation (the account, the player) instead of as the whole page.
 */
export function RouteError({ error, inArea = false }: { error: unknown; inArea?: boolean }) {
  if (!isRouteErrorResponse(error)) return <ErrorPage status={500} inArea={inArea} />;
  if (error.status === 404 && !inArea) return <NotFound />;
  const data: unknown = error.status < 500 ? error.data : null;
  const message = typeof data === "string" ? data : (data as { message?: unknown } | null)?.message;
  return <ErrorPage status={error.status} message={typeof message === "string" ? message : undefined} inArea={inArea} />;
}

const notFoundText = { title: "We couldn't find that page", message: "The link may be out of date, or the address may have a typo." };

/** The site's page for an error: what happened, in words, and the ways on from it. */
export function ErrorPage({ status, message, inArea = false }: { status: number; message?: string | undefined; inArea?: boolean }) {
  const text = status === 404 ? notFoundText : (errorTexts[status] ?? (status >= 500 ? serverFailure : errorTexts[400]!));
  const Heading = inArea ? "h2" : "h1";
  const page = (
    <>
      <title>{`${text.title} | Academy`}</title>
      <meta name="robots" content="noindex" />
      <p className="text-sm font-semibold text-brand-700 dark:text-brand-300">Error {status}</p>
      <Heading className="mt-2 text-3xl font-bold tracking-tight text-slate-950 sm:text-4xl dark:text-white">{text.title}</Heading>
      <p className="mt-4 max-w-xl text-lg text-slate-600 dark:text-slate-300">{message || text.message}</p>
      <div className="mt-8 flex flex-wrap items-center gap-x-6 gap-y-3">
        <ButtonLink to="/">
          Go to the home page
        </ButtonLink>
        <Link to="/help" className="text-sm font-semibold text-brand-700 hover:underline dark:text-brand-300">
          Help centre
        </Link>
      </div>
    </>
  );
  return inArea ? <section className="py-4">{page}</section> : <Container className="py-16 sm:py-24">{page}</Container>;
}

export function NotFound() {
  return (
    <Container className="py-16 sm:py-24">
      <title>Page not found | Academy</title>
      <meta name="robots" content="noindex" />
      <p className="text-sm font-semibold text-brand-700 dark:text-brand-300">404</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight text-slate-950 sm:text-4xl dark:text-white">
        We couldn't find that page
      </h1>
      <p className="mt-4 max-w-xl text-lg text-slate-600 dark:text-slate-300">
        The link may be out of date, or the address may have a typo. These pages might help:
      </p>
      <ul className="mt-8 grid gap-4 sm:grid-cols-2">
        {suggestions.map((s) => (
          <li key={s.to}>
            <Link
              to={s.to}
              className="block rounded-xl border border-slate-200 p-5 hover:border-brand-400 hover:bg-brand-50 dark:border-slate-800 dark:hover:border-brand-500 dark:hover:bg-slate-900"
            >
              <span className="font-semibold text-slate-950 dark:text-white">{s.label}</span>
              <span className="mt-1 block text-sm text-slate-600 dark:text-slate-400">{s.text}</span>
            </Link>
          </li>
        ))}
      </ul>
    </Container>
  );
}
