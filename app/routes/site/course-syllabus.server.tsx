import { renderToStaticMarkup } from "react-dom/server";
import type { Catalog, Course } from "../../../server/catalog/index.ts";
import { coursePriceLabel, CourseSyllabusItems } from "../../components/course-syllabus.tsx";

const rendered = new WeakMap<Catalog, Map<string, string>>();

/**
 * A course's syllabus items as HTML, rendered once per catalogue in each of their forms (for a
 * learner enrolled or not): the same for every visitor, and most of the course page's markup, which
 * React would otherwise render again on every request.
 */
export function syllabusHtml(catalog: Catalog, course: Course, enrolled: boolean): string {
  let forCatalog = rendered.get(catalog);
  if (!forCatalog) {
    forCatalog = new Map();
    rendered.set(catalog, forCatalog);
  }
  const key = `${course.id}|${enrolled}`;
  let html = forCatalog.get(key);
  if (html === undefined) {
    html = renderToStaticMarkup(<CourseSyllabusItems courseId={course.id} modules={course.modules} enrolled={enrolled} price={coursePriceLabel(course.price)} />);
    forCatalog.set(key, html);
  }
  return html;
}
