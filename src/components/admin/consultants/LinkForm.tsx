/**
 * Linking a team member who is not a consultant yet to an account (POST /api/admin/consultants):
 * two choices, then visitors can book them. A new team member is added to src/data/team.json first.
 */
import { useState, type SubmitEvent } from "react";
import type { AdminConsultant } from "#shared/api/consultants.ts";
import type { AccountInfo } from "#shared/api/security.ts";
import { ROUTES } from "#shared/routes.ts";
import { showToast } from "#src/stores/toasts.ts";
import { adminRequest } from "../api";
import { useCopy } from "../copy";
import { BusyButton, Data, ErrorNote, Field, Filled, iconPaths, inputClass, Section, useAction } from "../ui";
import type { TeamProfile } from "./profile";

/** Where the team members' public profiles are kept. */
const TEAM_FILE = "src/data/team.json";

export function LinkForm({
  team,
  consultants,
  accounts,
  onLinked,
}: {
  team: TeamProfile[];
  consultants: AdminConsultant[];
  accounts: AccountInfo[];
  onLinked: () => void;
}) {
  const { copy, f, lang } = useCopy();
  const c = copy.consultants;
  const members = team.filter((m) => !consultants.some((x) => x.id === m.id));
  const free = accounts.filter((a) => !consultants.some((x) => x.userId === a.id));
  const [member, setMember] = useState("");
  const [account, setAccount] = useState("");
  const link = useAction();

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const profile = members.find((m) => m.id === member);
    if (!profile || !account) return;
    void link.run(async () => {
      await adminRequest("POST", ROUTES.admin.consultants, { consultant: profile.id, userId: Number(account) });
      showToast({ title: f(c.linked, { name: profile.name[lang] }), description: c.linkedText, variant: "success" });
      setMember("");
      setAccount("");
      onLinked();
    }, c.linkError);
  };

  return (
    <Section title={c.linkTitle} intro={c.linkIntro} data-testid="link-consultant">
      <p className="mt-3 max-w-3xl rounded-xl bg-brand-50 px-4 py-3 text-sm text-brand-950">
        <Filled text={c.newMember} values={{ file: <Data>{TEAM_FILE}</Data> }} />
      </p>
      {!members.length ? (
        <p className="mt-5 font-medium text-ink">{c.allLinked}</p>
      ) : !free.length ? (
        <p className="mt-5 font-medium text-ink">{c.noAccounts}</p>
      ) : (
        <form onSubmit={submit} className="mt-5 grid gap-4 sm:grid-cols-2">
          <Field label={c.member}>
            {(props) => (
              <select
                {...props}
                required
                value={member}
                onChange={(e) => setMember(e.target.value)}
                className={inputClass}
              >
                <option value="">{c.choose}</option>
                {members.map((m) => (
                  <option key={m.id} value={m.id}>
                    {m.name[lang]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label={c.accountField}>
            {(props) => (
              <select
                {...props}
                required
                value={account}
                onChange={(e) => setAccount(e.target.value)}
                className={inputClass}
              >
                <option value="">{c.choose}</option>
                {free.map((a) => (
                  <option key={a.id} value={a.id}>
                    {`${a.username} (${copy.common.roles[a.role]})`}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <ErrorNote className="sm:col-span-2">{link.error}</ErrorNote>
          <div className="sm:col-span-2">
            <BusyButton
              type="submit"
              primary
              busy={link.busy !== null}
              label={c.link}
              busyLabel={c.linking}
              icon={iconPaths.plus}
            />
          </div>
        </form>
      )}
    </Section>
  );
}
