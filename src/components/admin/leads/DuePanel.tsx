/**
 * The dashboard's Due panel (GET /api/admin/due): the leads due today, oldest first, each with its
 * reference (a link that finds it in the list), the lead's name, why it is due (its follow-up date
 * has come, its answer is overdue) and its owner. Shows nothing when nothing is due; read once when
 * the dashboard opens, as the other panels are.
 */
import { apiRequest } from "#src/lib/api-client.ts";
import { leadLink, type DueAnswer, type DueLead } from "#shared/follow-ups.ts";
import { ROUTES } from "#shared/routes.ts";
import { useCopy } from "../copy";
import { Badge, Data, Filled, iconPaths, RowList, Section, useResource } from "../ui";

const loadDue = () => apiRequest<DueAnswer>("GET", ROUTES.admin.due);

export function DuePanel() {
  const { copy, f, date, n } = useCopy();
  const c = copy.due;
  const { data, failed } = useResource(loadDue);

  if (failed)
    return (
      <p role="alert" className="mt-6 rounded-lg bg-red-50 p-4 text-sm text-red-800">
        {c.loadError}
      </p>
    );
  if (!data?.leads.length) return null;
  return (
    <Section
      title={
        <>
          {c.title} <Badge tone="pending">{n(data.leads.length)}</Badge>
        </>
      }
      intro={c.intro}
      icon={iconPaths.calendar}
      className="mt-6"
      data-testid="due-panel"
    >
      <RowList data-testid="due-leads">
        {data.leads.map((lead) => (
          <DueRow key={lead.id} lead={lead} why={why(lead, c, f, date)} owner={lead.ownerName} copy={c} />
        ))}
      </RowList>
      {data.more && <p className="mt-3 text-sm text-muted">{c.more}</p>}
    </Section>
  );
}

type DueCopy = ReturnType<typeof useCopy>["copy"]["due"];

/** Why a lead is due, in the panel's words and dates. */
function why(lead: DueLead, c: DueCopy, f: ReturnType<typeof useCopy>["f"], date: (iso: string) => string): string[] {
  return [
    ...(lead.reasons.includes("followUp") && lead.followUpOn ? [f(c.followUp, { date: date(lead.followUpOn) })] : []),
    ...(lead.reasons.includes("overdue") && lead.answerDueBy ? [f(c.overdue, { date: date(lead.answerDueBy) })] : []),
  ];
}

function DueRow({ lead, why, owner, copy: c }: { lead: DueLead; why: string[]; owner: string | null; copy: DueCopy }) {
  return (
    <li className="flex flex-col gap-1 px-4 py-3 sm:flex-row sm:items-baseline sm:gap-4">
      <a href={leadLink(lead.reference)} className="font-semibold text-brand-800 underline-offset-2 hover:underline">
        <Data>{lead.reference}</Data>
      </a>
      <span className="min-w-0 flex-1 font-medium text-brand-950 [overflow-wrap:anywhere]">
        <Data>{lead.name}</Data>
      </span>
      <span className="flex flex-wrap gap-2">
        {why.map((text) => (
          <Badge key={text} tone="pending">
            {text}
          </Badge>
        ))}
      </span>
      <span className="text-sm text-muted">
        {owner ? <Filled text={c.owner} values={{ name: <Data>{owner}</Data> }} /> : c.nobody}
      </span>
    </li>
  );
}
