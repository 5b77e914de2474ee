import { Link } from "react-router";
import { MailIcon } from "./icons.tsx";

export interface HelpTopic {
  id: string;
  title: string;
}

/** The help centre's topics, each a page of its own; the one shown is marked. */
export function HelpTopicsNav({ topics, current }: { topics: HelpTopic[]; current?: string }) {
  return (
    <nav aria-label="Help topics" className="lg:sticky lg:top-24 lg:self-start">
      <ul className="flex flex-wrap gap-2 lg:flex-col lg:gap-1">
        {topics.map((topic) => (
          <li key={topic.id}>
            <Link
              to={`/help/${topic.id}`}
              aria-current={topic.id === current ? "page" : undefined}
              className="block rounded-md px-3 py-1.5 text-sm text-slate-700 hover:bg-slate-100 hover:text-slate-950 aria-[current=page]:bg-brand-50 aria-[current=page]:font-semibold aria-[current=page]:text-brand-800 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white aria-[current=page]:dark:bg-slate-800 aria-[current=page]:dark:text-white"
            >
              {topic.title}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** Where a question the help centre does not answer goes: a person, by e-mail or phone. */
export function HelpContact({ email, phone }: { email: string; phone: string }) {
  return (
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
  );
}
