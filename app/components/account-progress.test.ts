import { describe, expect, it } from "vitest";
import { courseActionLabel } from "./account-progress.tsx";

describe("courseActionLabel", () => {
  it("offers to start a course not begun, to continue one under way, and to open one finished", () => {
    expect([0, 1, 50, 99, 100].map(courseActionLabel)).toEqual(["Start course", "Continue", "Continue", "Continue", "Open course"]);
  });
});
