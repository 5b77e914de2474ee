import { Link } from "react-router";
import { appServices } from "../../../server/context.ts";
import { HelpContact } from "../../components/help-centre.tsx";
import { Container, PageIntro } from "../../components/page-intro.tsx";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/help";

/** Every question, by topic; each answer is on its topic's page (help-topic.tsx), a few kilobytes instead of all fifty. */
export function loader({ context }: Route.LoaderArgs) {
  const { help, site } = context.get(appServices).catalog;
  const topics = help.map((section) => ({
    id: section.id,
    title: section.title,
    questions: section.questions.map((q) => ({ id: q.id, question: q.question })),
  }));
  return { topics, email: site.email, phone: site.phone };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Help centre",
    description:
      "Answers about buying and taking courses, payments, GST invoices, refunds, website hosting and your account, and how to reach our support team.",
  });

export default function HelpPage({ loaderData: { topics, email, phone } }: Route.ComponentProps) {
  return (
    <Container className="py-12 sm:py-16">
      <PageIntro
        eyebrow="Help centre"
        title="How can we help?"
        lead="Answers to the questions learners and clients ask us most. Can't find yours? Write to us and a person will reply."
      />
      <div className="mt-10 grid gap-6 md:grid-cols-2 lg:grid-cols-3">
        {topics.map((topic) => (
          <section key={topic.id} id={topic.id} aria-labelledby={`${topic.id}-title`} className="rounded-xl border border-slate-200 p-5 dark:border-slate-800">
            <h2 id={`${topic.id}-title`} className="text-lg font-bold text-slate-950 dark:text-white">
              <Link to={`/help/${topic.id}`} className="hover:underline">
                {topic.title}
              </Link>
            </h2>
            <ul className="mt-2">
              {topic.questions.map((q) => (
                <li key={q.id}>
                  <Link to={`/help/${topic.id}#${q.id}`} className="help-question-link">
                    {q.question}
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
      <div className="mt-10">
        <HelpContact email={email} phone={phone} />
      </div>
    </Container>
  );
}
