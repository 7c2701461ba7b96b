import type { Availability, AvailabilityAnswer } from "#shared/api/availability.ts";
import { MEETING_MINUTES } from "#shared/office.ts";
import type { PanelUser } from "#shared/api/panel-language.ts";
import { ROUTES } from "#shared/routes.ts";
import { adminRequest } from "./api";
import { AdminOnly } from "./AdminOnly";
import { Closures } from "./availability/Closures";
import { HoursForm } from "./availability/HoursForm";
import { useAdminCopy } from "./copy";
import { PageSpinner, useResource } from "./ui";

const loadAvailability = () =>
  adminRequest<AvailabilityAnswer>("GET", ROUTES.admin.availability).then((answer) => answer.data);

/**
 * The availability page of the admin: weekly office hours, the public-holiday switch, and closed
 * days. The page's gate: an editor is told here that it is for admins (the other islands are quiet).
 */
export default function AvailabilityEditor() {
  return <AdminOnly>{(user) => <AvailabilityForms user={user} />}</AdminOnly>;
}

function AvailabilityForms({ user }: { user: PanelUser }) {
  const texts = useAdminCopy();
  const availability = useResource<Availability>(loadAvailability);
  const data = availability.data;

  if (!texts) return <PageSpinner />;
  const { copy, f } = texts;
  const c = copy.availability;
  if (availability.failed)
    return (
      <div role="alert" className="container-page py-12">
        <p className="card p-6 font-semibold text-red-800">{c.loadError}</p>
      </div>
    );
  if (!data) return <PageSpinner label={c.loading} />;

  return (
    <div className="container-page grid gap-8 py-8 sm:py-12">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <p className="text-sm text-muted">{f(copy.common.signedInAs, { name: user.username })}</p>
          <h1 className="mt-1 text-3xl font-bold tracking-tight text-brand-950 sm:text-4xl">{c.title}</h1>
          <p className="mt-2 max-w-2xl text-muted">{f(c.intro, { minutes: MEETING_MINUTES })}</p>
        </div>
      </div>
      <HoursForm data={data} onSaved={availability.set} />
      <Closures
        closures={data.closures}
        onChange={(closures) => availability.set({ ...data, closures })}
        holidays={data.holidays}
      />
    </div>
  );
}
