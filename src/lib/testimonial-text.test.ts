import { describe, expect, test } from "vitest";
import { insertEmojis, splitSentences, starParts } from "./testimonial-text";

const E = ["🅰", "🅱", "🆎"] as const;

describe("emoji placement in testimonials", () => {
  test("four sentences: after the first, after the third, and at the end", () => {
    expect(insertEmojis("One. Two. Three! Four?", E)).toBe("One. 🅰 Two. Three! 🅱 Four? 🆎");
  });
  test("six sentences: after the second and the fourth", () => {
    expect(insertEmojis("A. B. C. D. E. F.", E)).toBe("A. B. 🅰 C. D. 🅱 E. F. 🆎");
  });
  test("Persian sentence marks count as sentence ends", () => {
    expect(splitSentences("سلام. خوبی؟ عالی است!")).toEqual(["سلام.", "خوبی؟", "عالی است!"]);
    expect(insertEmojis("سلام. خوبی؟ عالی است!", E)).toBe("سلام. 🅰 خوبی؟ 🅱 عالی است! 🆎");
  });
  test("a single sentence gets all three at its end, none lost", () => {
    expect(insertEmojis("Great work.", E)).toBe("Great work. 🅰 🅱 🆎");
  });
  test("fewer emoji take the last places; none leaves the text as it is", () => {
    expect(insertEmojis("One. Two. Three! Four?", ["🅱", "🆎"])).toBe("One. Two. Three! 🅱 Four? 🆎");
    expect(insertEmojis("One. Two. Three! Four?", ["🆎"])).toBe("One. Two. Three! Four? 🆎");
    expect(insertEmojis("One. Two.", [])).toBe("One. Two.");
  });
  test("text without a final full stop keeps its last words", () => {
    expect(insertEmojis("First. Second. Third without stop", E)).toBe("First. 🅰 Second. 🅱 Third without stop 🆎");
  });
});

describe("star rating", () => {
  test("whole ratings", () => {
    expect(starParts(5)).toEqual({ full: 5, half: 0, empty: 0 });
    expect(starParts(4)).toEqual({ full: 4, half: 0, empty: 1 });
  });
  test("a half star at .5 or more, none below", () => {
    expect(starParts(3.5)).toEqual({ full: 3, half: 1, empty: 1 });
    expect(starParts(3.7)).toEqual({ full: 3, half: 1, empty: 1 });
    expect(starParts(3.4)).toEqual({ full: 3, half: 0, empty: 2 });
  });
  test("out-of-range and bad values are clamped", () => {
    expect(starParts(9)).toEqual({ full: 5, half: 0, empty: 0 });
    expect(starParts(-1)).toEqual({ full: 0, half: 0, empty: 5 });
    expect(starParts(Number.NaN)).toEqual({ full: 0, half: 0, empty: 5 });
  });
});
