import { z } from "zod";

const slug = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "must be lower-case letters, digits and dashes");
const nonEmpty = z.string().trim().min(1, "must not be empty");

export const money = z.object({
  /** Integer minor units (paise for INR). */
  amount: z.number().int().nonnegative(),
  currency: z.enum(["INR"]),
});
export type Money = z.infer<typeof money>;

/** An SVG drawn for the entry, in the same folder as its Markdown file, with what it shows in words. */
export const picture = z
  .object({
    file: z.string().regex(/^[a-z0-9][a-z0-9-]*\.svg$/, "must be the name of an .svg file beside this one, like cover.svg"),
    alt: nonEmpty.max(200, "must be at most 200 characters"),
  })
  .strict();

export const siteSchema = z.object({
  name: nonEmpty,
  legalName: nonEmpty,
  tagline: nonEmpty,
  description: nonEmpty.max(170, "must be at most 170 characters (it is the default meta description)"),
  email: z.email(),
  phone: nonEmpty,
  address: z.object({
    line1: nonEmpty,
    line2: z.string().optional(),
    city: nonEmpty,
    state: nonEmpty,
    postalCode: nonEmpty,
    country: nonEmpty,
  }),
  gstin: z.string().regex(/^[0-9]{2}[A-Z0-9]{13}$/, "must be a 15-character GSTIN"),
  tax: z.object({ mode: z.enum(["inclusive", "exclusive"]), ratePercent: z.number().min(0).max(100) }),
  refund: z.object({
    windowDays: z.number().int().positive(),
    maxProgressPercent: z.number().int().min(0).max(100),
  }),
  hero: z.object({ title: nonEmpty, text: nonEmpty }),
});
export type Site = z.infer<typeof siteSchema>;

/** A lesson file, content/courses/<course>/lessons/<module>-<lesson>.md. */
export const lessonFrontMatter = z.object({
  title: nonEmpty,
  minutes: z.number().int().positive(),
  preview: z.boolean().default(false),
  video: z.url().optional(),
});

export const lessonFileName = /^([1-9][0-9]*)-([1-9][0-9]*)\.md$/;

export const courseFrontMatter = z.object({
  title: nonEmpty,
  summary: nonEmpty.max(170, "must be at most 170 characters (it is the meta description)"),
  level: z.enum(["beginner", "intermediate", "advanced"]),
  category: nonEmpty,
  /** The course's length is the sum of its lessons' minutes; a written figure would drift from them. */
  durationHours: z.never({ error: "is computed from the lessons' minutes; remove it" }).optional(),
  price: money,
  /** When the course opened, for "newest" in the catalogue. */
  published: z.iso.date(),
  order: z.number().int(),
  featured: z.boolean().default(false),
  instructor: slug,
  cover: picture,
  outcomes: z.array(nonEmpty).min(3),
  prerequisites: z.array(nonEmpty).default([]),
  audience: z.array(nonEmpty).min(1),
  modules: z.array(z.object({ title: nonEmpty, summary: nonEmpty, objectives: z.array(nonEmpty).min(1) }).strict()).min(1),
});

export const servicePlan = z.object({
  id: slug,
  name: nonEmpty,
  /** The plan's family, such as Starter: a monthly and a yearly plan of one tier are one choice with a billing toggle. Defaults to the name. */
  tier: nonEmpty.optional(),
  interval: z.enum(["month", "year", "once"]),
  price: money,
  features: z.array(nonEmpty).min(1),
});

export const serviceFrontMatter = z.object({
  title: nonEmpty,
  summary: nonEmpty.max(170, "must be at most 170 characters (it is the meta description)"),
  icon: z.enum(["code", "server", "palette", "chart", "cloud", "shield", "phone", "users"]),
  order: z.number().int(),
  features: z.array(nonEmpty).min(3),
  process: z.array(z.object({ title: nonEmpty, text: nonEmpty })).default([]),
  plans: z
    .array(servicePlan)
    .default([])
    .refine((plans) => new Set(plans.map((p) => `${p.tier ?? p.name}/${p.interval}`)).size === plans.length, "must not give one tier two plans with the same interval"),
  startingPrice: money.optional(),
});

export const teamFrontMatter = z.object({
  name: nonEmpty,
  role: nonEmpty,
  portrait: picture,
  order: z.number().int(),
  expertise: z.array(nonEmpty).min(1),
  links: z.object({ linkedin: z.url().optional(), github: z.url().optional() }).default({}),
});

export const portfolioFrontMatter = z.object({
  title: nonEmpty,
  client: nonEmpty,
  industry: nonEmpty,
  year: z.number().int().min(2000).max(2100),
  summary: nonEmpty.max(200),
  image: picture,
  services: z.array(slug).min(1),
  technologies: z.array(nonEmpty).min(1),
  results: z.array(nonEmpty).min(1),
  order: z.number().int(),
});

export const policyFrontMatter = z.object({
  title: nonEmpty,
  description: nonEmpty.max(170),
  updated: z.iso.date(),
});

export const helpFrontMatter = z.object({
  title: nonEmpty,
  order: z.number().int(),
});
