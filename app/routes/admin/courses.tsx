import { Link } from "react-router";
import { appServices } from "../../../server/context.ts";
import { courseFigures } from "../../../server/staff/index.ts";
import type { Route } from "./+types/courses";
import { backOfficeMeta } from "./meta.ts";
import { staffWith } from "./access.server.ts";
import { percentOf, ratingText } from "./course-figures.ts";
import { PageHeading } from "./page-heading.tsx";
import { Badge } from "../../components/ui/badge.tsx";

/** Every course with its learners, completions and rating. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await staffWith(context, request, "courses.view");
  const { db, catalog } = context.get(appServices);
  return { courses: await courseFigures(db, catalog) };
}

export const meta: Route.MetaFunction = () => backOfficeMeta("Courses");

/** The table's columns after the course's own: all figures, set to the right. */
const figureColumns = ["Learners", "Finished", "Refunded", "Rating"];

export default function CoursesPage({ loaderData }: Route.ComponentProps) {
  return (
    <div className="space-y-6">
      <PageHeading title="Courses" lead="How each course is doing: who may open it, who finished it (a certificate), what they rate it. Open one to see where learners stop, or to take it off sale." />
      <div className="overflow-x-auto">
        <table className="w-full min-w-[40rem] text-left text-sm">
          <caption className="sr-only">Courses with their learners, completions and rating</caption>
          <thead className="border-b border-slate-200 text-slate-600 dark:border-slate-800 dark:text-slate-400">
            <tr>
              <th scope="col" className="py-2 pr-4 font-medium">
                Course
              </th>
              {figureColumns.map((column) => (
                <th key={column} scope="col" className="py-2 pr-4 text-right font-medium last:pr-0">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
            {loaderData.courses.map((course) => (
              <tr key={course.id}>
                <th scope="row" className="py-3 pr-4 font-medium">
                  <Link to={`/admin/courses/${course.id}`} className="text-brand-700 hover:underline dark:text-brand-300">
                    {course.title}
                  </Link>
                  {!course.onSale && (
                    <Badge tone="warning" className="ml-2 whitespace-nowrap">
                      Off sale
                    </Badge>
                  )}
                </th>
                <td className="py-3 pr-4 text-right tabular-nums text-slate-950 dark:text-white">{course.learners}</td>
                <td className="py-3 pr-4 text-right tabular-nums text-slate-950 dark:text-white">
                  {course.completions} <span className="text-slate-600 dark:text-slate-400">({course.learners === 0 ? "—" : `${percentOf(course.completions, course.learners)}%`})</span>
                </td>
                <td className="py-3 pr-4 text-right tabular-nums text-slate-950 dark:text-white">{course.refunded}</td>
                <td className="py-3 text-right tabular-nums text-slate-950 dark:text-white">
                  {ratingText(course)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
