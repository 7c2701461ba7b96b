/** An account row's role menu and its "Change role" button (src/components/admin/security/AccountsSection.tsx). */
import { useState } from "react";
import type { AccountInfo } from "#shared/api/security.ts";
import { ROLES, type Role } from "#shared/roles.ts";
import { useCopy } from "../copy";
import { BusyButton, inputClass } from "../ui";

export function RoleChange({
  account,
  nameId,
  onRole,
}: {
  account: AccountInfo;
  /** The id of the element showing the account's name. */
  nameId: string;
  /** Asks the server; false when it refused (the menu shows the account's role again). */
  onRole: (role: Role) => Promise<boolean>;
}) {
  const { copy } = useCopy();
  const c = copy.security.accounts;
  const [role, setRole] = useState<Role>(account.role);
  const [changing, setChanging] = useState(false);

  const change = async () => {
    setChanging(true);
    if (!(await onRole(role))) setRole(account.role);
    setChanging(false);
  };

  return (
    <>
      {/* "Role of {{name}}" in the panel's words around the account's name, which is data: the
          select is named by the words (hidden) and the name shown above it. */}
      {c.roleOf.split("{{name}}").map(
        (part, i) =>
          part.trim() && (
            <span key={i} id={`${nameId}-role-${i}`} hidden>
              {part.trim()}
            </span>
          ),
      )}
      <div className="w-full sm:w-40">
        <select
          id={`${nameId}-role`}
          aria-labelledby={c.roleOf
            .split("{{name}}")
            .flatMap((part, i) => [...(i ? [nameId] : []), ...(part.trim() ? [`${nameId}-role-${i}`] : [])])
            .join(" ")}
          value={role}
          onChange={(event) => setRole(event.target.value as Role)}
          className={inputClass}
        >
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {copy.common.roles[r]}
            </option>
          ))}
        </select>
      </div>
      <BusyButton
        busy={changing}
        disabled={role === account.role}
        label={c.change}
        busyLabel={c.changing}
        describedBy={nameId}
        onClick={() => void change()}
      />
    </>
  );
}
