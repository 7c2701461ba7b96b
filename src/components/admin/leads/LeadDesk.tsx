/**
 * The enquiries on /admin/leads ("submissions" to the staff): for now the list with its filters, in
 * the address (view-url.ts). `onCounted`: called after a change the figures above count.
 */
import type { ServiceNames } from "#shared/services.ts";
import { DashboardLists } from "../DashboardLists";

export function LeadDesk({ serviceNames, onCounted }: { serviceNames: ServiceNames; onCounted: () => void }) {
  return <DashboardLists kind="enquiries" serviceNames={serviceNames} onCounted={onCounted} />;
}
