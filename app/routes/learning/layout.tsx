import { Link, Outlet, useParams } from "react-router";
import { RouteError } from "../../components/not-found.tsx";
import { Container } from "../../components/page-intro.tsx";
import type { Route } from "./+types/layout";

/** The course player's pages: each draws its own header (components/player); this layout only catches their errors. */
export default function LearningLayout() {
  return <Outlet />;
}

/** An error in the player keeps the way back into the course and to the person's other courses. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { courseId } = useParams();
  return (
    <>
      <Container className="pt-8">
        <nav aria-label="Course" className="flex flex-wrap gap-x-6 gap-y-2 text-sm font-semibold">
          {courseId && (
            <Link to={`/courses/${courseId}/MainPage`} className="text-brand-700 hover:underline dark:text-brand-300">
              ← Back to the course
            </Link>
          )}
          <Link to="/account/courses" className="text-brand-700 hover:underline dark:text-brand-300">
            Your courses
          </Link>
        </nav>
      </Container>
      <RouteError error={error} />
    </>
  );
}
