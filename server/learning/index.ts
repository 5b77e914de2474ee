import type { CertificateFace } from "../../common/view-types.ts";
import type { CertificatePdf } from "./certificate-pdf.ts";

export { certificateFace, certificatePdfsPerHour, correctCertificateName, findCertificate, holderCertificate, issueCertificate, issuedCertificateIds, lastLessonCompletedAt, listCertificates, type Certificate } from "./certificates.ts";
export { completeLesson, RefundLimitAhead, refundLimitNotice } from "./completion.ts";
export { courseOutline, courseState, findCourse, lessonView, rememberLesson, visitorState, type CourseState, type LessonState, type LessonView, type OutlineModule } from "./player.ts";
export { recommendedCourses } from "./recommendations.ts";
export { unprintableCharacters } from "./certificate-fonts.ts";
export type { CertificatePdf };

/** The certificate as a PDF; the PDF library, megabytes of heap, is loaded when the first is drawn. */
export async function certificatePdf(face: CertificateFace): Promise<CertificatePdf> {
  return (await import("./certificate-pdf.ts")).certificatePdf(face);
}
