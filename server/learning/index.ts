export { certificateFace, certificatePdfsPerHour, correctCertificateName, findCertificate, holderCertificate, issueCertificate, issuedCertificateIds, lastLessonCompletedAt, listCertificates, type Certificate } from "./certificates.ts";
export { completeLesson, RefundLimitAhead, refundLimitNotice } from "./completion.ts";
export { courseOutline, courseState, findCourse, lessonView, rememberLesson, visitorState, type CourseState, type LessonState, type LessonView, type OutlineModule } from "./player.ts";
export { recommendedCourses } from "./recommendations.ts";
export { certificatePdf, unprintableCharacters, type CertificatePdf } from "./certificate-pdf.ts";
