import { appServices, documentRequest } from "../../../server/context.ts";
import { MailIcon } from "../../components/icons.tsx";
import { Container, PageIntro, Prose } from "../../components/page-intro.tsx";
import { pageMeta } from "../../lib/seo.ts";
import { htmlOnce, useHtmlOnce, type HtmlOnce } from "../../lib/server-html.ts";
import type { Route } from "./+types/help";

/** The element each answer is rendered in, where hydration finds the answer the page was sent with. */
const answerId = (sectionId: string, questionId: string) => `answer-${sectionId}-${questionId}`;

export function loader({ context }: Route.LoaderArgs) {
  const { help, site } = context.get(appServices).catalog;
  const document = context.get(documentRequest);
  // Each answer's HTML is sent once, in the page, not a second time in its loader data (app/lib/server-html.ts).
  const sections = help.map((section) => ({
    id: section.id,
    title: section.title,
    questions: section.questions.map((q) => ({ id: q.id, question: q.question, answer: htmlOnce(document, answerId(section.id, q.id), q.answerHtml) })),
  }));
  return { sections, email: site.email, phone: site.phone };
}

function Answer({ id, answer }: { id: string; answer: HtmlOnce }) {
  return <Prose id={id} html={useHtmlOnce(id, answer)} className="mt-3 text-sm" />;
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Help centre",
    description:
      "Answers about buying and taking courses, payments, GST invoices, refunds, website hosting and your account, and how to reach our support team.",
  });

export default function HelpPage({ loaderData: { sections, email, phone } }: Route.ComponentProps) {
  return (
    <Container className="py-12 sm:py-16">
      <PageIntro
        eyebrow="Help centre"
        title="How can we help?"
        lead="Answers to the questions learners and clients ask us most. Can't find yours? Write to us and a person will reply."
      />
      <div className="mt-10 grid gap-12 lg:grid-cols-[14rem_1fr]">
        <nav aria-label="Help topics" className="lg:sticky lg:top-24 lg:self-start">
          <ul className="flex flex-wrap gap-2 lg:flex-col lg:gap-1">
            {sections.map((section) => (
              <li key={section.id}>
                <a
                  href={`#${section.id}`}
                  className="block rounded-md px-3 py-1.5 text-sm text-slate-700 hover:bg-slate-100 hover:text-slate-950 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white"
                >
                  {section.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="min-w-0 space-y-12">
          {sections.map((section) => (
            <section key={section.id} id={section.id} aria-labelledby={`${section.id}-title`}>
              <h2 id={`${section.id}-title`} className="text-2xl font-bold text-slate-950 dark:text-white">
                {section.title}
              </h2>
              <div className="mt-4 divide-y divide-slate-200 rounded-xl border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
                {section.questions.map((q) => (
                  <details key={q.id} id={`${section.id}-${q.id}`} className="help-question group">
                    <summary>
                      {q.question}
                      <span aria-hidden="true">+</span>
                    </summary>
                    <Answer id={answerId(section.id, q.id)} answer={q.answer} />
                  </details>
                ))}
              </div>
            </section>
          ))}
          <section aria-labelledby="contact" className="rounded-2xl bg-brand-50 p-6 dark:bg-slate-900">
            <h2 id="contact" className="text-xl font-bold text-slate-950 dark:text-white">
              Still need help?
            </h2>
            <p className="mt-2 text-slate-700 dark:text-slate-300">
              Write to{" "}
              <a className="inline-flex items-center gap-1 font-semibold underline underline-offset-2" href={`mailto:${email}`}>
                <MailIcon className="size-4" />
                {email}
              </a>{" "}
              or call {phone}, Monday to Friday, 10:00–18:00 IST.
            </p>
          </section>
        </div>
      </div>
    </Container>
  );
}
