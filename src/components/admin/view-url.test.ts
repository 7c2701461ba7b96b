import { describe, expect, test } from "vitest";
import { legacyListAddress, readView, viewSearch, type View } from "./view-url";

describe("a list's view in its address", () => {
  test("every filter of each list comes back as it was", () => {
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
    for (const view of views) expect(readView(viewSearch(view), view.tab)).toEqual(view);
  });

  test("the desk's board is in the address (?view=board); the list, its default, is not", () => {
    const board: View = { tab: "enquiries", filters: { stage: "new" }, desk: "board" };
    expect(viewSearch(board)).toBe("?stage=new&view=board");
    expect(readView(viewSearch(board), "enquiries")).toEqual(board);
    expect(viewSearch({ tab: "enquiries", filters: {}, desk: "board" })).toBe("?view=board");
    expect(viewSearch({ tab: "enquiries", filters: {}, desk: "list" })).toBe("");
    for (const other of ["?view=list", "?view=grid", "?view=BOARD", "?view=__proto__"])
      expect(readView(other, "enquiries"), other).toEqual({ tab: "enquiries", filters: {} });
  });

  test("the unfiltered view has a bare address; what cannot be read is left out", () => {
    expect(viewSearch({ tab: "enquiries", filters: {} })).toBe("");
    expect(readView("?tab=nope&status=maybe&q=hello&from=2026-02-30", "enquiries")).toEqual({
      tab: "enquiries",
      filters: { q: "hello" },
    });
  });
});

describe("the old dashboard's addresses", () => {
  test("a meetings tab opens the meetings page with its filters, without the tab", () => {
    expect(legacyListAddress("?tab=meetings&q=ada%40example.com&from=2026-11-24&to=2026-11-24")).toBe(
      "/admin/meetings?q=ada%40example.com&from=2026-11-24&to=2026-11-24",
    );
  });

  test("anything else opens the leads page, its parameters kept as they were", () => {
    expect(legacyListAddress("")).toBe("/admin/leads");
    expect(legacyListAddress("?tab=enquiries")).toBe("/admin/leads");
    expect(legacyListAddress("?q=leila%40example.com&status=pending")).toBe(
      "/admin/leads?q=leila%40example.com&status=pending",
    );
    // An unknown or repeated tab is not the meetings tab; hostile keys pass through as plain text.
    expect(legacyListAddress("?tab=nope&tab=meetings&__proto__=x")).toBe("/admin/leads?__proto__=x");
  });
});
