import { describe, expect, it } from "vitest";
import { allReviewsLink, reviewCount } from "./stars.tsx";

describe("the words for a number of reviews", () => {
  it("counts reviews in Indian digits, one review in the singular", () => {
    expect(reviewCount(1)).toBe("1 review");
    expect(reviewCount(12_500)).toBe("12,500 reviews");
  });

  it("links to every review without saying 'See all 1 review'", () => {
    expect(allReviewsLink(1)).toBe("Go to the feedback page");
    expect(allReviewsLink(2)).toBe("See all 2 reviews");
  });
});
