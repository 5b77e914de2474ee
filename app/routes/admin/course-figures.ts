// How the back office words a course's figures, on the list and on a course's page alike.

/** `part` as a whole percentage of `whole`; 0 when there is no whole. */
export const percentOf = (part: number, whole: number): number => (whole === 0 ? 0 : Math.round((part / whole) * 100));

/** A course's rating as staff read it: "4.5 of 5 (12)", or "No reviews". */
export const ratingText = (course: { rating: number | null; reviewCount: number }): string =>
  course.rating === null ? "No reviews" : `${course.rating} of 5 (${course.reviewCount})`;
