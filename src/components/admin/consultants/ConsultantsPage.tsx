/**
 * The Consultants page (/admin/consultants), admins only: every consultant with their account,
 * whether they take new meetings and which weekly hours they keep; pausing and resuming them,
 * setting their own hours, and linking a team member who is not a consultant yet to an account.
 * The team members themselves are src/data/team.json's (the page passes their profiles).
 */
import type { AvailabilityAnswer } from "#shared/api/availability.ts";
import type { AdminConsultant } from "#shared/api/consultants.ts";
import type { OpeningHours } from "#shared/office.ts";
import type { AccountInfo } from "#shared/api/security.ts";
import { ROUTES } from "#shared/routes.ts";
import { adminRequest } from "../api";
import { AdminOnly } from "../AdminOnly";
import { useAdminCopy } from "../copy";
import { EmptyState, iconPaths, PageSpinner, PageTitle, Section, useResource } from "../ui";
import { ConsultantRow } from "./ConsultantRow";
import { LinkForm } from "./LinkForm";
import type { TeamProfile } from "./profile";

interface PageData {
  consultants: AdminConsultant[];
  accounts: AccountInfo[];
  /** The office's weekly hours: what a consultant without their own keeps, and where their own start from. */
  office: OpeningHours[];
}

const loadPage = async (): Promise<PageData> => {
  const [consultants, accounts, availability] = await Promise.all([
    adminRequest<AdminConsultant[]>("GET", ROUTES.admin.consultants),
    adminRequest<AccountInfo[]>("GET", ROUTES.admin.users),
    adminRequest<AvailabilityAnswer>("GET", ROUTES.admin.availability),
  ]);
  return { consultants, accounts, office: availability.data.hours };
};

export default function ConsultantsPage({ team }: { team: TeamProfile[] }) {
  return <AdminOnly>{() => <Consultants team={team} />}</AdminOnly>;
}

function Consultants({ team }: { team: TeamProfile[] }) {
  const texts = useAdminCopy();
  const page = useResource(loadPage);
  if (!texts) return <PageSpinner />;
  const { copy, f } = texts;
  const c = copy.consultants;
  if (page.failed)
    return (
      <div className="container-page py-8 sm:py-12">
        <EmptyState tone="error" icon={iconPaths.alert} title={c.loadError}>
          {copy.common.tryAgain}
        </EmptyState>
      </div>
    );
  const data = page.data;
  if (!data) return <PageSpinner label={c.loading} />;

  const replace = (next: AdminConsultant) =>
    page.set({ ...data, consultants: data.consultants.map((x) => (x.id === next.id ? next : x)) });
  // In the team's order, as the public site shows them (one no longer in the team last).
  const place = (id: string) => {
    const index = team.findIndex((m) => m.id === id);
    return index < 0 ? team.length : index;
  };
  const ordered = [...data.consultants].sort((a, b) => place(a.id) - place(b.id));
  const usernameOf = (userId: number) =>
    data.accounts.find((a) => a.id === userId)?.username ?? f(c.unknownAccount, { id: userId });

  return (
    <div className="container-page grid gap-8 py-8 sm:py-12">
      <PageTitle title={c.title} intro={c.intro} />
      <Section title={c.listTitle} data-testid="consultants">
        <ul role="list" className="mt-2 divide-y divide-line">
          {ordered.map((consultant) => {
            const index = team.findIndex((m) => m.id === consultant.id);
            return (
              <ConsultantRow
                key={consultant.id}
                consultant={consultant}
                profile={team[index]}
                index={Math.max(index, 0)}
                username={usernameOf(consultant.userId)}
                office={data.office}
                onChange={replace}
              />
            );
          })}
        </ul>
      </Section>
      <LinkForm
        team={team}
        consultants={data.consultants}
        accounts={data.accounts}
        onLinked={() => void page.reload()}
      />
    </div>
  );
}
