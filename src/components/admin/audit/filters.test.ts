import { describe, expect, test } from "vitest";
import { filtersQuery, readFilters } from "./filters";

describe("audit filters in the address", () => {
  test("read back what they wrote", () => {
    const filters = { action: "export", actor: "sara", from: "2026-11-24", to: "2026-11-24" } as const;
    expect(filtersQuery(filters)).toBe("?action=export&actor=sara&from=2026-11-24&to=2026-11-24");
    expect(readFilters(filtersQuery(filters))).toEqual(filters);
    expect(filtersQuery({})).toBe("");
    expect(filtersQuery({ actor: "  " })).toBe("");
  });

  test("leave out what the API would refuse", () => {
    expect(readFilters("?action=drop.table&actor=&from=2026-02-30&to=tuesday&before=5&__proto__=x")).toEqual({});
    expect(readFilters(`?actor=${"a".repeat(101)}`)).toEqual({});
    expect(readFilters("?action=constructor")).toEqual({});
    expect(readFilters("?actor=%20Sara%20")).toEqual({ actor: "Sara" });
  });
});
