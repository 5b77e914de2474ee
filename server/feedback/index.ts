export {
  courseRating,
  listReviews,
  reviewerName,
  reviewerStanding,
  reviewsPerPage,
  sharedCourseRating,
  sharedNewestReviews,
  sharedTopReviews,
  topReviews, type RatingSummary, type Review, type ReviewerStanding } from "./queries.ts";
export { deleteReview, InvalidReview, maxCommentLength, saveReview, type ReviewFieldErrors, type SaveOutcome } from "./reviews.ts";
