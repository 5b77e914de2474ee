import { redirect } from "react-router";
import { appServices, requireViewer } from "../../../server/context.ts";
import { attempt } from "../../../server/errors.ts";
import { certificateFace, certificatePdf, holderCertificate } from "../../../server/learning/index.ts";
import { certificatePath } from "../../components/certificate/certificate-action.tsx";
import type { Route } from "./+types/certificate-pdf";

/**
 * The holder's certificate as a PDF file, drawn from the same face as its page; anyone else, and a
 * revoked certificate, is refused in words. Signed-out visitors are sent to sign in first.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const viewer = requireViewer(context);
  const { catalog, cipher, db, publicUrl } = context.get(appServices);
  const found = await attempt(() => holderCertificate(db, cipher, viewer.id, params.certificateId));
  if (!found.ok) return new Response(found.message, { status: found.status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  const pdf = await certificatePdf(certificateFace(catalog, publicUrl, found.value));
  // Its page says which letters the PDF cannot draw, and prints with the device's own fonts.
  if (!pdf.ok) throw redirect(certificatePath(found.value.id));
  return new Response(pdf.bytes, {
    headers: {
      "Content-Type": "application/pdf",
      // Inline: the browser shows it, and saves it under this name.
      "Content-Disposition": `inline; filename="${pdf.fileName}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
