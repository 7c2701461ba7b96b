/**
 * A mail's subject or text as its writer wrote it, in the panel: read in the direction of its words
 * (a "Re:" before a Persian subject does not turn it left to right, as dir="auto" would), and our
 * references (E-00042, M-00017) kept whole and left to right, never broken at their dash across two
 * lines of a narrow right-to-left paragraph. Never markup: every part is rendered as text.
 */
import type { ElementType } from "react";
import { textDirection } from "#shared/format.ts";

/** A reference, with the isolates a right-to-left email may have put around it. */
const REFERENCE = /(\u2066?[EM]-\d{5,}\u2069?)/;

interface Props {
  text: string;
  /** The direction when known (the lead's language); else the text's own, else the browser's guess. */
  dir?: "ltr" | "rtl";
  as?: ElementType;
  className?: string;
}

export function MailText({ text, dir, as: Tag = "p", className }: Props) {
  const parts = text.split(REFERENCE);
  return (
    <Tag dir={dir ?? textDirection(text) ?? "auto"} translate="no" className={className}>
      {parts.map((part, i) =>
        i % 2 ? (
          <bdi key={i} dir="ltr" className="whitespace-nowrap">
            {part.replace(/[\u2066\u2069]/g, "")}
          </bdi>
        ) : (
          part
        ),
      )}
    </Tag>
  );
}
