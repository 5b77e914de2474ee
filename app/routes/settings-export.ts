import { appServices, viewerContext } from "../../server/context.ts";
import { exportUserData } from "../../server/users/data-export.ts";
import type { Route } from "./+types/settings-export";

/** "Download my data": everything we hold on the signed-in person, decrypted, as one JSON file. */
export async function loader({ context }: Route.LoaderArgs) {
  const viewer = context.get(viewerContext);
  if (!viewer) return new Response("Sign in to download your data.", { status: 401 });
  const services = context.get(appServices);
  const body = JSON.stringify(await exportUserData(services, viewer.id, services.shop.now()), null, 2);
  return new Response(body, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": 'attachment; filename="academy-my-data.json"',
      "Cache-Control": "no-store",
    },
  });
}
