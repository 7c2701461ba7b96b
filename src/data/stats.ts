/** The claims shown on the home page. Values are language-neutral; labels are translated. */
export const heroStats = [
  { value: "28+", key: "businesses" },
  { value: "23+", key: "countries" },
  { value: "€5M+", key: "capital" },
] as const;

export const successRate = "94%";
export const businessesGuided = "50+";
