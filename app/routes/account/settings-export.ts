import { appServices, viewerContext } from "../../../server/context.ts";
import { TooManyRequests } from "../../../server/errors.ts";
import { exportUserData } from "../../../server/users/index.ts";
import type { Route } from "./+types/settings-export";

/** "Download my data": everything we hold on the signed-in person, decrypted, as one JSON file streamed out. */
export async function loader({ context }: Route.LoaderArgs) {
  const viewer = context.get(viewerContext);
  if (!viewer) return new Response("Sign in to download your data.", { status: 401 });
  const services = context.get(appServices);
  try {
    return new Response(await exportUserData(services, viewer.id, services.shop.now()), {
      headers: {
        "Content-Type": "application/json; charset=utf-8",
        "Content-Disposition": 'attachment; filename="academy-my-data.json"',
        "Cache-Control": "no-store",
      },
    });
  } catch (error) {
    if (!(error instanceof TooManyRequests)) throw error;
    return new Response(error.message, {
      status: 429,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Retry-After": String(error.retryAfterSeconds), "Cache-Control": "no-store" },
    });
  }
}
