// What screens render, in the shapes loaders hand them. The server's domain types either are these
// (imported from here) or carry these fields and more; components import only from here, never
// from the schema or a domain module.
import type { OrderStatus } from "./order-statuses.ts";

/** Integer minor units (paise for INR). */
export interface Money {
  amount: number;
  currency: "INR";
}

/** A drawing from content/, served under a name that changes with its bytes. */
export interface Picture {
  src: string;
  alt: string;
  width: number;
  height: number;
}

export type CourseLevel = "beginner" | "intermediate" | "advanced";

export interface Lesson {
  /** "<module>-<lesson>", both counted from 1. */
  id: string;
  title: string;
  minutes: number;
  /** Open to every signed-in person, enrolled or not. */
  preview: boolean;
  /** A privacy-enhanced embed address, when the lesson has a video. */
  videoEmbedUrl: string | null;
}

export interface CourseModule {
  title: string;
  summary: string;
  objectives: string[];
  lessons: Lesson[];
}

/** What a course card reads of a catalogue course. */
export interface Course {
  id: string;
  title: string;
  summary: string;
  category: string;
  level: CourseLevel;
  price: Money;
  cover: Picture;
  /** The team member who teaches it, by id. */
  instructor: string;
  lessonCount: number;
  totalMinutes: number;
  durationHours: number;
}

/** What a course card reads of a team member. */
export interface TeamMember {
  id: string;
  name: string;
}

export interface CourseStats {
  /** Learners with an active enrolment now. */
  learners: number;
  reviewCount: number;
  /** Rounded to one decimal; null when the course has no reviews yet. */
  rating: number | null;
}

export type ServiceIcon = "code" | "server" | "palette" | "chart" | "cloud" | "shield" | "phone" | "users";

export interface ServicePlan {
  id: string;
  name: string;
  /** The plan's family, such as Starter, when it has a monthly and a yearly plan; else the plan's name. */
  tier?: string | undefined;
  interval: "month" | "year" | "once";
  price: Money;
  features: string[];
}

/** What a service card reads of a catalogue service. */
export interface Service {
  id: string;
  title: string;
  summary: string;
  icon: ServiceIcon;
  plans: ServicePlan[];
  startingPrice?: Money | undefined;
}

export interface Review {
  id: string;
  courseId: string;
  rating: number;
  comment: string;
  /** First name and last initial, as the learner gave it. */
  reviewer: string;
  /** The reviewer holds an active enrolment in the course now. */
  verified: boolean;
  createdAt: string;
  edited: boolean;
  /** The company's public answer under the review. */
  reply: { text: string; at: string } | null;
}

/** The lesson a note is attached to, as it is called today. */
export interface NoteLesson {
  courseId: string;
  courseTitle: string;
  lessonId: string;
  lessonTitle: string;
}

export type LessonState = "done" | "in-progress" | "todo" | "locked";

export interface OutlineModule {
  number: number;
  title: string;
  summary: string;
  objectives: string[];
  completed: number;
  lessons: { id: string; title: string; minutes: number; preview: boolean; state: LessonState }[];
}

/** Everything a receipt (the GST tax invoice) and its credit note print of one order. */
export interface ReceiptView {
  id: string;
  /** ACD-000042. */
  number: string;
  paid: boolean;
  status: OrderStatus;
  courseId: string | null;
  kind: "course" | "website";
  payPath: string;
  title: string;
  createdAt: Date;
  paidAt: Date | null;
  amount: number;
  taxableAmount: number;
  taxAmount: number;
  /** A coupon's discount before GST: the taxable value it took off the listed price. */
  discount: { code: string; amount: number } | null;
  taxRatePercent: number;
  taxMode: "inclusive" | "exclusive";
  cgst: number;
  sgst: number;
  /** GST to a business registered in another state: then CGST and SGST are 0. */
  igst: number;
  buyer: { name: string; email: string; gstin: string | null };
  seller: { legalName: string; addressLines: string[]; gstin: string; email: string; phone: string };
  placeOfSupply: string;
  payment: { method: string; providerPaymentId: string } | null;
  free: boolean;
  /** The refund's own figures: the invoice's for a whole refund, a share of them for part of the order. */
  creditNote: { number: string; issuedAt: Date; providerRefundId: string | null; whole: boolean; amount: number; taxableAmount: number; cgst: number; sgst: number; igst: number } | null;
}

/** What a certificate shows, on its page and in its PDF alike. */
export interface CertificateFace {
  id: string;
  learnerName: string;
  courseTitle: string;
  issuedAt: Date | string;
  instructor: { name: string; role: string } | null;
  issuer: { name: string; legalName: string };
  verifyUrl: string;
}
