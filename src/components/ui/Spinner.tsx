/** A spinning ring, for the admin and visitor islands alike; decorative, so pair it with visible or screen-reader text. */
export function Spinner({ className = "size-5" }: { className?: string }) {
  return (
    <svg
      className={`${className} shrink-0 animate-spin motion-reduce:animate-none`}
      viewBox="0 0 24 24"
      fill="none"
      aria-hidden="true"
      focusable="false"
    >
      <circle cx="12" cy="12" r="9" stroke="currentColor" strokeOpacity="0.25" strokeWidth="3" />
      <path d="M21 12a9 9 0 0 0-9-9" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}
