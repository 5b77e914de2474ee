import { data } from "react-router";
import { appServices, documentRequest } from "../../../server/context.ts";
import { BackLink } from "../../components/back-link.tsx";
import { HelpContact, HelpTopicsNav } from "../../components/help-centre.tsx";
import { Container, PageIntro, Prose } from "../../components/page-intro.tsx";
import { pageMeta } from "../../lib/seo.ts";
import { htmlOnce, useHtmlOnce, type HtmlOnce } from "../../lib/server-html.ts";
import type { Route } from "./+types/help-topic";

/** The element each answer is rendered in, where hydration finds the answer the page was sent with. */
const answerId = (questionId: string) => `answer-${questionId}`;

export function loader({ params, context }: Route.LoaderArgs) {
  const { help, site } = context.get(appServices).catalog;
  const section = help.find((s) => s.id === params.topic);
  if (!section) throw data(null, { status: 404 });
  const document = context.get(documentRequest);
  return {
    topic: {
      id: section.id,
      title: section.title,
      // Each answer's HTML is sent once, in the page, not a second time in its loader data (app/lib/server-html.ts).
      questions: section.questions.map((q) => ({ id: q.id, question: q.question, answer: htmlOnce(document, answerId(q.id), q.answerHtml) })),
    },
    topics: help.map((s) => ({ id: s.id, title: s.title })),
    email: site.email,
    phone: site.phone,
  };
}

export const meta: Route.MetaFunction = (args) => {
  const topic = args.loaderData?.topic;
  if (!topic) return [];
  const questions = topic.questions.map((q) => q.question).join(" ");
  return pageMeta(args, {
    title: `${topic.title} · Help centre`,
    description: questions.length > 155 ? `${questions.slice(0, questions.lastIndexOf(" ", 154))}…` : questions,
  });
};

function Answer({ id, answer }: { id: string; answer: HtmlOnce }) {
  return <Prose id={id} html={useHtmlOnce(id, answer)} className="mt-3" />;
}

export default function HelpTopicPage({ loaderData: { topic, topics, email, phone } }: Route.ComponentProps) {
  return (
    <Container className="py-12 sm:py-16">
      <BackLink fallback="/help" label="Help centre" />
      <div className="mt-4">
        <PageIntro eyebrow="Help centre" title={topic.title} />
      </div>
      <div className="mt-10 grid gap-12 lg:grid-cols-[14rem_1fr]">
        <HelpTopicsNav topics={topics} current={topic.id} />
        <div className="min-w-0 space-y-10">
          {topic.questions.map((q) => (
            <section key={q.id} id={q.id} aria-labelledby={`${q.id}-question`} className="scroll-mt-24">
              <h2 id={`${q.id}-question`} className="text-xl font-semibold text-slate-950 dark:text-white">
                {q.question}
              </h2>
              <Answer id={answerId(q.id)} answer={q.answer} />
            </section>
          ))}
          <HelpContact email={email} phone={phone} />
        </div>
      </div>
    </Container>
  );
}
