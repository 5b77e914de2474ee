import { data } from "react-router";
import { documentRequest } from "../../../server/context.ts";
import { NotFound } from "../../components/not-found.tsx";
import type { Route } from "./+types/not-found";

/** Any unknown address; also the page the HTTP layer renders its own errors on (server/http/documents.ts). */
export function loader({ context }: Route.LoaderArgs) {
  const failure = context.get(documentRequest).serverError;
  if (failure) throw data({ message: failure.message }, { status: failure.status });
  throw data(null, { status: 404 });
}

export default function NotFoundRoute() {
  return <NotFound />;
}
