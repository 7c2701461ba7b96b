import { site } from "../config/site";
import { t } from "../i18n";
import type { GuardLabels } from "../lib/form-token";
import type { Language } from "../shared/languages";

/** What every public form says when a bot trap or an abuse limit refuses it, in the page's language. */
export function guardLabels(lang: Language): GuardLabels {
  const tr = t(lang);
  return {
    honeypot: tr("formGuard.honeypotLabel"),
    tooMany: tr("formGuard.tooManyText", { email: site.email }),
    tokenFailed: tr("formGuard.tokenFailed"),
    paused: tr("formGuard.pausedText", { email: site.email }),
  };
}
