/** A form's line on how its details are used, with the link to the privacy policy. */
export interface PrivacyNoteLabels {
  text: string;
  /** The privacy policy link's text and address, in the page's language. */
  link: { label: string; href: string };
}

export default function PrivacyNote({
  labels,
  tone = "light",
  className = "",
}: {
  labels: PrivacyNoteLabels;
  /** "dark" on the footer's dark background. */
  tone?: "light" | "dark";
  className?: string;
}) {
  return (
    <p className={`text-sm ${tone === "dark" ? "text-slate-300" : "text-muted"} ${className}`}>
      {labels.text}{" "}
      <a
        href={labels.link.href}
        className={`font-medium underline underline-offset-4 ${tone === "dark" ? "text-white hover:text-teal-100" : "text-brand-700 hover:text-brand-900"}`}
      >
        {labels.link.label}
      </a>
    </p>
  );
}
