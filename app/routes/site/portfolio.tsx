import { Link } from "react-router";
import { appServices } from "../../../server/context.ts";
import { CheckList } from "../../components/check-list.tsx";
import { ContentImage } from "../../components/content-image.tsx";
import { Container, PageIntro, Prose } from "../../components/page-intro.tsx";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/portfolio";
import { cardClass } from "../../components/ui/card.tsx";

export function loader({ context }: Route.LoaderArgs) {
  const { portfolio, services } = context.get(appServices).catalog;
  const serviceTitles = Object.fromEntries(services.map((s) => [s.id, s.title]));
  return { projects: portfolio, serviceTitles };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Portfolio",
    description:
      "Case studies of websites, online stores, cloud migrations and training programmes we have delivered for clinics, schools, retailers and start-ups across India.",
  });

export default function PortfolioPage({ loaderData: { projects, serviceTitles } }: Route.ComponentProps) {
  return (
    <Container className="py-12 sm:py-16">
      <PageIntro
        eyebrow="Portfolio"
        title="Work we are proud of"
        lead="A selection of projects for clients across India: what they needed, what we built and what changed for them."
      />
      <ul className="mt-12 grid gap-8 lg:grid-cols-2">
        {projects.map((project) => (
          <li key={project.id}>
            <article
              aria-labelledby={`project-${project.id}`}
              className={cardClass({ className: "flex h-full flex-col p-6" })}
            >
              <ContentImage
                picture={project.image}
                className="-mx-6 -mt-6 mb-5 block w-[calc(100%+3rem)] max-w-none rounded-t-2xl border-b border-slate-200 dark:border-slate-800"
              />
              <p className="text-xs font-semibold uppercase tracking-wide text-brand-700 dark:text-brand-300">
                {project.industry} · {project.year}
              </p>
              <h2 id={`project-${project.id}`} className="mt-2 text-xl font-semibold text-slate-950 dark:text-white">
                {project.title}
              </h2>
              <p className="text-sm text-slate-600 dark:text-slate-400">{project.client}</p>
              <p className="mt-3 text-slate-700 dark:text-slate-300">{project.summary}</p>
              <h3 className="mt-5 text-sm font-semibold text-slate-950 dark:text-white">Results</h3>
              <CheckList small items={project.results} className="mt-2 space-y-1.5" />
              <details className="mt-5">
                <summary className="cursor-pointer text-sm font-semibold text-brand-700 dark:text-brand-300">
                  Read the case study
                </summary>
                <Prose html={project.bodyHtml} className="mt-3 text-sm" />
              </details>
              <div className="mt-auto flex flex-wrap gap-2 pt-5 text-xs">
                {project.services.map((id) => (
                  <Link
                    key={id}
                    to={`/service/${id}`}
                    className="rounded-full border border-brand-200 px-3 py-1 font-medium text-brand-800 hover:bg-brand-50 dark:border-brand-800 dark:text-brand-200 dark:hover:bg-slate-800"
                  >
                    {serviceTitles[id]}
                  </Link>
                ))}
                {project.technologies.map((tech) => (
                  <span key={tech} className="rounded-full bg-slate-100 px-3 py-1 text-slate-700 dark:bg-slate-800 dark:text-slate-300">
                    {tech}
                  </span>
                ))}
              </div>
            </article>
          </li>
        ))}
      </ul>
    </Container>
  );
}
