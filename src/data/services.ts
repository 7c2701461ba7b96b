import type { ServiceId } from "../shared/services";

/**
 * The service pages: which catalogue services (src/shared/services.ts) have a page of their own,
 * with its route, the locale group of its page copy, icon and image. A service's name is not here:
 * it is `services.names.<id>` in the locale files.
 */
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
] as const satisfies readonly { id: ServiceId; key: string; path: string; icon: string; image: string }[];

export type ServiceKey = (typeof services)[number]["key"];

/** Every public page, without language prefix, with its translation key for metadata. */
export const pages = [
  { path: "/", metaKey: "home" },
  ...services.map((s) => ({ path: s.path, metaKey: s.key })),
  { path: "/privacy", metaKey: "privacy" },
] as const;
