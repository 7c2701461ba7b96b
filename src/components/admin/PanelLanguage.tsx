/**
 * The language of the admin panel, in the header of every admin page. The choice shows at once,
 * this browser keeps it, and the signed-in person's account remembers it (PATCH /api/user; before
 * signing in there is no account to tell, and the browser's choice is enough).
 */
import { ROUTES } from "#shared/routes.ts";
import type { Language } from "#shared/languages.ts";
import { apiRequest } from "#src/lib/api-client.ts";
import { PANEL_LANGUAGES, showPanelIn, useAdminCopy } from "./copy";
import { Icon } from "./ui";

/** Each language named in itself, as a language menu does: a reader finds their own whatever the panel shows. */
const ownName = (lang: Language) => new Intl.DisplayNames(lang, { type: "language" }).of(lang) ?? lang;

const GLOBE =
  "M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM3 12h18M12 3c2.5 2.7 3.8 5.7 3.8 9s-1.3 6.3-3.8 9c-2.5-2.7-3.8-5.7-3.8-9S9.5 5.7 12 3z";

export default function PanelLanguage() {
  const texts = useAdminCopy();
  if (!texts) return null;
  const choose = (lang: Language) => {
    showPanelIn(lang);
    void apiRequest("PATCH", ROUTES.user, { body: { language: lang }, on401: "null" }).catch(() => {
      // Not remembered on the account this time: the browser still has it.
    });
  };
  return (
    <label className="flex items-center gap-2 text-sm font-semibold text-ink">
      <Icon path={GLOBE} className="hidden size-5 text-brand-700 sm:block" />
      <span className="sr-only sm:not-sr-only">{texts.copy.common.panelLanguage}</span>
      <select
        value={texts.lang}
        onChange={(event) => choose(event.target.value as Language)}
        data-testid="panel-language"
        className="min-h-11 rounded-xl border border-line bg-white px-2.5 py-1.5 text-ink"
      >
        {PANEL_LANGUAGES.map((lang) => (
          <option key={lang} value={lang} lang={lang}>
            {ownName(lang)}
          </option>
        ))}
      </select>
    </label>
  );
}
