import { describe, expect, test } from "vitest";
import { readView, viewSearch, type View } from "./view-url";

describe("the dashboard's view in its address", () => {
  test("every filter of each tab comes back as it was", () => {
    const views: View[] = [
      { tab: "enquiries", filters: {} },
      {
        tab: "enquiries",
        filters: {
          q: "علی کریمی",
          stage: "replied",
          owner: "me",
          attention: "overdue",
          service: "startup-studio",
          language: "nl",
          from: "2026-01-01",
          to: "2026-12-31",
          sort: "oldest",
        },
      },
      {
        tab: "meetings",
        filters: {
          q: "+31 6",
          status: "confirmed",
          language: "fa",
          from: "2026-11-01",
          when: "upcoming",
          sort: "soonest",
        },
      },
      { tab: "meetings", filters: { when: "past", sort: "latest", to: "2026-11-22" } },
    ];
    for (const view of views) expect(readView(viewSearch(view))).toEqual(view);
  });

  test("the default view has a bare address; what cannot be read is left out", () => {
    expect(viewSearch({ tab: "enquiries", filters: {} })).toBe("");
    expect(readView("?tab=nope&status=maybe&q=hello&from=2026-02-30")).toEqual({
      tab: "enquiries",
      filters: { q: "hello" },
    });
  });
});
