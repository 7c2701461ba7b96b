import { expect, test } from "vitest";
import { heroStats, statValue } from "./stats.ts";

const capital = heroStats.find((s) => s.key === "capital")!;
const businesses = heroStats.find((s) => s.key === "businesses")!;

test("the capital claim reads as Persian in Persian, right to left, and stays €5M+ elsewhere", () => {
  expect(statValue("fa", capital)).toEqual({ text: "۵ میلیون یورو+", dir: "rtl", wraps: true });
  expect(statValue("en", capital)).toEqual({ text: "€5M+", dir: "ltr", wraps: false });
  expect(statValue("nl", capital)).toEqual({ text: "€5M+", dir: "ltr", wraps: false });
});

test("a figure alone keeps its order in Persian, in Persian digits", () => {
  expect(statValue("fa", businesses)).toEqual({ text: "۲۸+", dir: "ltr", wraps: false });
  expect(statValue("en", businesses)).toEqual({ text: "28+", dir: "ltr", wraps: false });
});
