import { appServices } from "../../../server/context.ts";
import { Container, PageIntro } from "../../components/page-intro.tsx";
import { PersonProfile } from "../../components/person-profile.tsx";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/team";
import { cardClass } from "../../components/ui/card.tsx";

export function loader({ context }: Route.LoaderArgs) {
  return { team: context.get(appServices).catalog.team };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Team",
    description: "Meet the engineers, designers and instructors who teach our courses and build our clients' websites.",
  });

export default function TeamPage({ loaderData: { team } }: Route.ComponentProps) {
  return (
    <Container className="py-12 sm:py-16">
      <PageIntro
        eyebrow="Team"
        title="The people behind the courses and the code"
        lead="Everyone who teaches here also builds for a living. That is how we keep the courses current and the client work honest."
      />
      <ul className="mt-12 grid gap-6 md:grid-cols-2">
        {team.map((member) => (
          <li key={member.id} className={cardClass({ className: "p-6" })}>
            <PersonProfile person={member} headingLevel={2}>
              <ul className="mt-4 flex flex-wrap gap-2" aria-label={`${member.name}'s expertise`}>
                {member.expertise.map((skill) => (
                  <li
                    key={skill}
                    className="rounded-full bg-slate-100 px-3 py-1 text-xs font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-300"
                  >
                    {skill}
                  </li>
                ))}
              </ul>
            </PersonProfile>
          </li>
        ))}
      </ul>
    </Container>
  );
}
