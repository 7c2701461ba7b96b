/** /admin/sources: the Sources figures for an admin; an editor is told the page is for admins. */
import { AdminOnly } from "./AdminOnly";
import SourcesView from "./sources/SourcesView";

export default function SourcesPage() {
  return <AdminOnly>{() => <SourcesView />}</AdminOnly>;
}
