/** The three services: their route and translation key. */
export const services = [
  {
    id: "startup-visa",
    key: "startupVisa",
    path: "/startup-visa",
    icon: "passport",
    image: "/images/startup-visa.svg",
  },
  {
    id: "business-launchpad",
    key: "businessLaunchpad",
    path: "/business-launchpad",
    icon: "rocket",
    image: "/images/business-launchpad.svg",
  },
  {
    id: "startup-studio",
    key: "startupStudio",
    path: "/startup-studio",
    icon: "lightbulb",
    image: "/images/startup-studio.svg",
  },
] as const;

export type ServiceKey = (typeof services)[number]["key"];

/** Every public page, without language prefix, with its translation key for metadata. */
export const pages = [
  { path: "/", metaKey: "home" },
  ...services.map((s) => ({ path: s.path, metaKey: s.key })),
] as const;
