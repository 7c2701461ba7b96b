import { describe, expect, test } from "vitest";
import { serviceNames } from "../i18n";
import { resources } from "../i18n/locales";
import { LANGUAGES } from "./languages";
import { SERVICE_IDS, serviceDisplayName } from "./services";

const PUBLISHED_SERVICES = ["startup-visa", "business-launchpad", "startup-studio", "other"] as const;

describe("the service catalogue", () => {
  test("holds the four published values, `other` last in the form", () => {
    expect(SERVICE_IDS).toEqual(expect.arrayContaining([...PUBLISHED_SERVICES]));
    expect(SERVICE_IDS.at(-1)).toBe("other");
  });

  test.each(LANGUAGES)("every service has a name on the %s site", (lang) => {
    const names = serviceNames(lang);
    expect(Object.keys(names)).toEqual([...SERVICE_IDS]);
    for (const id of SERVICE_IDS) {
      // Read from the locale file itself: i18next answers a missing key with the key.
      expect(resources[lang].services.names[id]?.trim(), `${lang}: ${id}`).toBeTruthy();
      expect(names[id]).toBe(resources[lang].services.names[id]);
    }
  });

  test("the admin shows the published labels (the English names), and an unknown value as it is", () => {
    const names = serviceNames("en");
    expect(PUBLISHED_SERVICES.map((id) => serviceDisplayName(id, names))).toEqual([
      "Startup Visa",
      "Business Launchpad",
      "Startup Studio",
      "Other Services",
    ]);
    expect(serviceDisplayName("consulting", names)).toBe("consulting");
    expect(serviceDisplayName("toString", names)).toBe("toString");
  });
});
