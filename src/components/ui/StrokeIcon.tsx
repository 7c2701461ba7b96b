import { directional, icons, type IconName } from "./icons";

/** One of the site's stroke icons (icons.ts) in a React island; a directional one is mirrored right to left. */
export function StrokeIcon({ name, className = "size-5" }: { name: IconName; className?: string }) {
  return (
    <svg
      className={directional.has(name) ? `${className} rtl:-scale-x-100` : className}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      aria-hidden="true"
    >
      <path d={icons[name]} strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
