import { rolesOf } from "../staff/index.ts";
import type { HttpDeps } from "./deps.ts";
import { hasSession } from "./page-cache.ts";

/** The back office's addresses, as pages and as React Router's data requests for them. */
const backOfficePath = /^\/admin(?:\/|\.data$|$)/;

/**
 * For anyone without a staff role the back office does not exist: its addresses are answered as an
 * unknown address is, by handing React Router a request for one (so no route id, layout or error of
 * its own reaches the page, whatever the client accepts), and React Router's route discovery (`/__manifest?paths=…`) is told of no route
 * there. Only requests for those addresses pay for the lookup.
 */
export function backOfficeGate(deps: Pick<HttpDeps, "identity" | "database">) {
  async function isStaff(headers: Headers): Promise<boolean> {
    if (!hasSession(headers.get("cookie"))) return false;
    const session = await deps.identity.auth.api.getSession({ headers });
    return session !== null && (await rolesOf(deps.database.db, session.user.id)).length > 0;
  }

  return {
    /**
     * `request` as React Router is to see it: for the back office by someone who holds no role, the
     * same request for `unknownPath` (a page or its data, as asked), so the answer is an unknown address's.
     */
    async asSeenBy(request: Request, unknownPath: string): Promise<Request> {
      const url = new URL(request.url);
      if (!backOfficePath.test(url.pathname) || (await isStaff(request.headers))) return request;
      url.pathname = url.pathname.endsWith(".data") ? `${unknownPath}.data` : unknownPath;
      return new Request(url, request);
    },

    /** A route-discovery request, with the back office's addresses asked about as an unknown one, unless the person holds a role. */
    async discovery(request: Request, unknownPath: string): Promise<Request> {
      const url = new URL(request.url);
      const paths = url.searchParams.get("paths")?.split(",") ?? [];
      if (url.pathname !== "/__manifest" || !paths.some((path) => backOfficePath.test(path)) || (await isStaff(request.headers))) return request;
      url.searchParams.set("paths", [...new Set(paths.map((path) => (backOfficePath.test(path) ? unknownPath : path)))].join(","));
      return new Request(url, request);
    },
  };
}
