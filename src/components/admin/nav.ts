/**
 * The admin panel's navigation (AdminNav.astro): its pages in order, which of them only an admin may
 * open, and the role the layout shows them for. The links are in the page's HTML from the start; an
 * admin-only link shows once the session says the person is an admin (`<html data-panel-role>`),
 * which this browser tab remembers, so the next page shows the admin's links in its first paint and
 * an editor never sees a link to a page that is not theirs. The server refuses those pages' calls to
 * an editor either way: the role here only decides what is shown.
 */
import type { PanelUser } from "#shared/api/panel-language.ts";
import { iconPaths } from "./ui/basics";

export const NAV_PAGES = [
  { key: "leads", href: "/admin/leads", adminOnly: true, icon: iconPaths.inbox },
  { key: "meetings", href: "/admin/meetings", adminOnly: true, icon: iconPaths.calendar },
  { key: "sources", href: "/admin/sources", adminOnly: true, icon: "M4 20V10m6 10V4m6 16v-7m4 7H3" },
  { key: "texts", href: "/admin/texts", adminOnly: false, icon: iconPaths.pencil },
  {
    key: "availability",
    href: "/admin/availability",
    adminOnly: true,
    icon: "M12 7v5l3 2m6-2a9 9 0 1 1-18 0 9 9 0 0 1 18 0z",
  },
  {
    key: "consultants",
    href: "/admin/consultants",
    adminOnly: true,
    icon: "M9 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM3 20a6 6 0 0 1 12 0M16 5.2a3 3 0 0 1 0 5.6M17 14.3a6 6 0 0 1 4 5.7",
  },
  {
    key: "privacy",
    href: "/admin/privacy",
    adminOnly: true,
    icon: "M7 11V8a5 5 0 0 1 10 0v3M5 11h14v10H5zM12 15v2",
  },
  { key: "security", href: "/admin/security", adminOnly: false, icon: iconPaths.shield },
  { key: "audit", href: "/admin/audit", adminOnly: true, icon: "M8 6h12M8 12h12M8 18h12M4 6h.01M4 12h.01M4 18h.01" },
] as const;

export type NavPage = (typeof NAV_PAGES)[number]["key"];
/** A page in the navigation: one of its pages, or the person's own sign-in methods (the account part). */
export type NavPlace = NavPage | "factors";

export const FACTORS_ICON = "M15 7a3 3 0 1 1-6 0 3 3 0 0 1 6 0zM5 21a7 7 0 0 1 14 0";
export const WEBSITE_ICON = iconPaths.arrowLeft;
export const LOGOUT_ICON = iconPaths.logout;
export const MENU_ICON = "M4 7h16M4 12h16M4 17h16";
export const CHEVRON_ICON = iconPaths.chevronDown;

/** What the navigation shows: an admin's pages, an editor's, or (a second factor to set up first) no pages. */
export type NavRole = "admin" | "editor" | "setup";

export const navRoleOf = (user: Pick<PanelUser, "role" | "setup">): NavRole =>
  user.setup ? "setup" : user.role === "admin" ? "admin" : "editor";

/** Where this tab remembers the role (sessionStorage): read before the first paint by AdminLayout. */
export const NAV_ROLE_KEY = "admin-nav-role";

/** The inline script of a page with the navigation: the remembered role, on <html>, before the first paint. */
export const NAV_ROLE_SCRIPT = `try{var r=sessionStorage.getItem(${JSON.stringify(NAV_ROLE_KEY)});if(r==="admin"||r==="editor"||r==="setup")document.documentElement.dataset.panelRole=r}catch(e){}`;
/** The login page's: whoever signs in next in this tab starts with no role remembered. */
export const FORGET_ROLE_SCRIPT = `try{sessionStorage.removeItem(${JSON.stringify(NAV_ROLE_KEY)})}catch(e){}`;

/** Shows the navigation for `role` (null: no one signed in) and remembers it for this tab's next page. */
export function showNavRole(role: NavRole | null): void {
  const root = document.documentElement;
  if (role) root.dataset.panelRole = role;
  else delete root.dataset.panelRole;
  try {
    if (role) sessionStorage.setItem(NAV_ROLE_KEY, role);
    else sessionStorage.removeItem(NAV_ROLE_KEY);
  } catch {
    // Storage blocked: each page learns the role from the session alone.
  }
}
