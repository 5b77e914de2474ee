import type { ReactNode } from "react";
import { ContentImage, type ContentPicture } from "./content-image.tsx";
import { Prose } from "./page-intro.tsx";

/** What a profile shows of a team member: their name, role, portrait and bio (HTML rendered from content/). */
export interface Person {
  name: string;
  role: string;
  portrait: ContentPicture;
  bioHtml: string;
}

/**
 * A team member's portrait beside their name and role, and their bio under both at the full width of
 * its box, so a phone does not squeeze it into a column beside the portrait. `children` follow the bio.
 */
export function PersonProfile({ person, headingLevel, children }: { person: Person; headingLevel: 2 | 3; children?: ReactNode }) {
  const Heading = `h${headingLevel}` as const;
  return (
    <>
      <div className="flex items-center gap-4">
        <ContentImage picture={person.portrait} className="size-20 shrink-0 rounded-full" />
        <div>
          <Heading className="text-lg font-semibold text-slate-950 dark:text-white">{person.name}</Heading>
          <p className="text-sm text-slate-600 dark:text-slate-400">{person.role}</p>
        </div>
      </div>
      <Prose html={person.bioHtml} className="mt-4 text-sm" />
      {children}
    </>
  );
}
