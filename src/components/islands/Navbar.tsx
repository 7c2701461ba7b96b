import { useRef, type MouseEvent, type ReactNode } from "react";
import { useDismiss } from "./useDismiss";

export interface NavLink {
  href: string;
  label: string;
  current?: boolean;
}

export interface LanguageLink {
  code: string;
  name: string;
  short: string;
  href: string;
  current: boolean;
}

export interface NavbarProps {
  homeHref: string;
  homeLabel: string;
  logo?: ReactNode;
  links: { home: NavLink; about: NavLink; testimonials: NavLink; team: NavLink; contact: NavLink };
  services: { label: string; current: boolean; items: NavLink[] };
  languages: LanguageLink[];
  languageLabel: string;
  getStarted: NavLink;
  menuLabel: string;
  navLabel: string;
}

const chevron = (
  <svg
    className="size-4 shrink-0 transition-transform group-open:rotate-180"
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth={2}
    aria-hidden="true"
  >
    <path d="M6 9l6 6 6-6" strokeLinecap="round" strokeLinejoin="round" />
  </svg>
);

const linkBase =
  "whitespace-nowrap rounded-lg px-3 py-2 text-[0.95rem] font-medium transition-colors hover:bg-brand-50 hover:text-brand-700";
const active = "text-brand-700 bg-brand-50";
const idle = "text-slate-700";

function Dropdown({
  summary,
  label,
  className,
  panelClass,
  children,
}: {
  summary: ReactNode;
  label?: string;
  className?: string;
  panelClass: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDetailsElement>(null);
  useDismiss(ref);
  return (
    <details ref={ref} className={`group relative ${className ?? ""}`}>
      <summary aria-label={label} className="flex min-h-11 items-center gap-1.5 rounded-lg px-3 py-2">
        {summary}
      </summary>
      <div
        className={`absolute top-full z-50 mt-2 rounded-2xl border border-line bg-white p-2 shadow-lift ${panelClass}`}
      >
        {children}
      </div>
    </details>
  );
}

/** Sticky site navigation: links, services and language dropdowns, mobile menu. */
export default function Navbar(props: NavbarProps) {
  const { links, services, languages, getStarted } = props;

  const switchLanguage = (e: MouseEvent<HTMLAnchorElement>, lang: LanguageLink) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.altKey || e.button !== 0) return;
    e.preventDefault();
    // Only the query and hash are added here: the new page's head script (src/lib/boot.ts) stores
    // its language before first paint, so the cookie has one writer.
    location.assign(lang.href + location.search + location.hash);
  };

  const languageList = (
    <ul className="min-w-44" role="list">
      {languages.map((l) => (
        <li key={l.code}>
          <a
            href={l.href}
            hrefLang={l.code}
            lang={l.code}
            aria-current={l.current ? "true" : undefined}
            onClick={(e) => switchLanguage(e, l)}
            className={`flex items-center justify-between gap-4 rounded-xl px-3 py-2.5 text-sm hover:bg-brand-50 ${l.current ? "font-semibold text-brand-700" : "text-slate-700"}`}
          >
            <span>{l.name}</span>
            <span className="text-xs font-semibold text-slate-500">{l.short}</span>
          </a>
        </li>
      ))}
    </ul>
  );

  const current = languages.find((l) => l.current);
  const sectionLinks = [links.about, links.testimonials, links.team, links.contact];

  return (
    <nav aria-label={props.navLabel} className="container-page flex h-16 items-center gap-1 sm:gap-2 xl:h-[4.5rem]">
      <a href={props.homeHref} aria-label={props.homeLabel} className="me-auto flex min-h-11 items-center rounded-lg">
        {props.logo}
      </a>

      <ul className="hidden items-center gap-0.5 xl:flex" role="list">
        <li>
          <a
            href={links.home.href}
            aria-current={links.home.current ? "page" : undefined}
            className={`${linkBase} ${links.home.current ? active : idle}`}
          >
            {links.home.label}
          </a>
        </li>
        <li>
          <Dropdown
            summary={
              <span
                className={`flex items-center gap-1 whitespace-nowrap text-[0.95rem] font-medium ${services.current ? "text-brand-700" : "text-slate-700"}`}
              >
                {services.label}
                {chevron}
              </span>
            }
            className={`rounded-lg hover:bg-brand-50 ${services.current ? "bg-brand-50" : ""}`}
            panelClass="start-0 w-64"
          >
            <ul role="list">
              {services.items.map((item) => (
                <li key={item.href}>
                  <a
                    href={item.href}
                    aria-current={item.current ? "page" : undefined}
                    className={`block rounded-xl px-3 py-2.5 text-sm hover:bg-brand-50 ${item.current ? "font-semibold text-brand-700" : "text-slate-700"}`}
                  >
                    {item.label}
                  </a>
                </li>
              ))}
            </ul>
          </Dropdown>
        </li>
        {sectionLinks.map((link) => (
          <li key={link.href}>
            <a href={link.href} className={`${linkBase} ${idle}`}>
              {link.label}
            </a>
          </li>
        ))}
      </ul>

      <Dropdown
        label={props.languageLabel}
        summary={
          <span className="flex items-center gap-1.5 text-sm font-semibold text-slate-700">
            <svg
              className="size-5"
              viewBox="0 0 24 24"
              fill="none"
              stroke="currentColor"
              strokeWidth={1.75}
              aria-hidden="true"
            >
              <path d="M12 3a9 9 0 100 18 9 9 0 000-18zM3.5 9h17M3.5 15h17M12 3c2.5 2.6 3.8 5.6 3.8 9s-1.3 6.4-3.8 9c-2.5-2.6-3.8-5.6-3.8-9S9.5 5.6 12 3z" />
            </svg>
            <span aria-hidden="true">{current?.short}</span>
            <span className="hidden sm:inline">{chevron}</span>
          </span>
        }
        className="rounded-lg hover:bg-brand-50 xl:ms-2"
        panelClass="end-0"
      >
        {languageList}
      </Dropdown>

      <a href={getStarted.href} className="btn btn-primary hidden whitespace-nowrap sm:inline-flex">
        {getStarted.label}
      </a>
      <a href={getStarted.href} aria-label={getStarted.label} className="btn btn-primary px-3 sm:hidden">
        <svg
          className="size-5 rtl:-scale-x-100"
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth={2}
          aria-hidden="true"
        >
          <path d="M4 12l16-8-6 16-3-7-7-1z" strokeLinejoin="round" />
        </svg>
      </a>

      <MobileMenu {...props} />
    </nav>
  );
}

function MobileMenu({ links, services, menuLabel }: NavbarProps) {
  const ref = useRef<HTMLDetailsElement>(null);
  useDismiss(ref);
  const item = (link: NavLink, indent = false) => (
    <li key={link.href}>
      <a
        href={link.href}
        aria-current={link.current ? "page" : undefined}
        className={`block rounded-xl px-4 py-3 text-base hover:bg-brand-50 ${indent ? "ps-8 text-[0.95rem]" : "font-medium"} ${link.current ? "text-brand-700 bg-brand-50" : "text-slate-800"}`}
      >
        {link.label}
      </a>
    </li>
  );
  return (
    <details ref={ref} className="group xl:hidden">
      <summary
        aria-label={menuLabel}
        className="flex size-11 items-center justify-center rounded-lg text-slate-800 hover:bg-brand-50"
      >
        <svg
          className="size-6 group-open:hidden"
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth={2}
          aria-hidden="true"
        >
          <path d="M4 7h16M4 12h16M4 17h16" strokeLinecap="round" />
        </svg>
        <svg
          className="hidden size-6 group-open:block"
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth={2}
          aria-hidden="true"
        >
          <path d="M6 6l12 12M18 6L6 18" strokeLinecap="round" />
        </svg>
      </summary>
      <div className="absolute inset-x-0 top-full max-h-[calc(100dvh-4rem)] overflow-y-auto border-b border-line bg-white px-4 pb-6 pt-2 shadow-lift">
        <ul role="list" className="space-y-0.5">
          {item(links.home)}
          <li>
            <p
              className={`px-4 pt-3 pb-1 text-xs font-bold tracking-wider uppercase ${services.current ? "text-brand-700" : "text-slate-500"}`}
            >
              {services.label}
            </p>
            <ul role="list">{services.items.map((s) => item(s, true))}</ul>
          </li>
          {[links.about, links.testimonials, links.team, links.contact].map((l) => item(l))}
        </ul>
      </div>
    </details>
  );
}
