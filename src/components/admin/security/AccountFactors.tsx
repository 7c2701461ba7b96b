/** An account's second factors on the Security page: the authenticator app, its passkeys, or none. */
import type { AccountInfo } from "#shared/api/security.ts";
import { useCopy } from "../copy";
import { Badge } from "../ui";

export function AccountFactors({ account }: { account: Pick<AccountInfo, "totp" | "passkeys"> }) {
  const { copy, p } = useCopy();
  const c = copy.security.accounts;
  const none = !account.totp && account.passkeys === 0;
  return (
    <p data-testid="account-factors" className="mt-2 flex flex-wrap items-center gap-2 text-sm text-muted">
      {c.factors}
      {none && <Badge tone="pending">{c.noFactor}</Badge>}
      {account.totp && <Badge tone="done">{c.totp}</Badge>}
      {account.passkeys > 0 && <Badge tone="done">{p(c.passkeys, account.passkeys)}</Badge>}
    </p>
  );
}
