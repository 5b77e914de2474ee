import type { MetaDescriptor } from "react-router";

/** A back-office page's title, and the word to search engines that it is not to be indexed or followed. */
export const backOfficeMeta = (title: string): MetaDescriptor[] => [{ title: `${title} | Academy back office` }, { name: "robots", content: "noindex, nofollow" }];
