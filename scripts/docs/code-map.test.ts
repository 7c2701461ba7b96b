import { describe, expect, test } from "vitest";
import { repoRoot } from "../../tools/copy-check/testing.ts";
import { codeMapProblems, mapProblems, namedFolders, treeFolders } from "./code-map.mjs";

describe("the code's map (npm run check)", () => {
  const tree = treeFolders([
    "src/shared/api/meetings.ts",
    "src/pages/index.astro",
    "db/types.ts",
    "public/images/a.png",
  ]);

  test("names nested folders by indentation and whole paths alike", () => {
    expect(
      [...namedFolders("src/   the site\n  pages/   routes\n  shared/\n    api/  types\ndb/x/  y\n")].sort(),
    ).toEqual(["db", "db/x", "src", "src/pages", "src/shared", "src/shared/api"]);
  });

  test("fails when a folder of the tree is not named", () => {
    expect(mapProblems("src/\n  pages/\n  shared/\n    api/\npublic/\n", tree)).toEqual({ missing: ["db"], gone: [] });
  });

  test("a map of the top level needs only the top-level folders, but what it names must exist", () => {
    expect(mapProblems("src/\ndb/\npublic/\n", tree, 1)).toEqual({ missing: [], gone: [] });
    expect(mapProblems("src/\npublic/\n", tree, 1)).toEqual({ missing: ["db"], gone: [] });
    expect(mapProblems("src/\n  gone/\ndb/\npublic/\n", tree, 1)).toEqual({ missing: [], gone: ["src/gone"] });
  });

  test("fails when a named folder is gone", () => {
    const block = "src/\n  pages/\n  shared/\n    api/\n    schemas/\ndb/\npublic/\n";
    expect(mapProblems(block, tree)).toEqual({ missing: [], gone: ["src/shared/schemas"] });
  });

  test("the README and docs/architecture.md match this repository's tree", () => {
    expect(codeMapProblems(repoRoot)).toEqual([]);
  });
});
