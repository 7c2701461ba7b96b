/** /admin/privacy: the privacy tools (export, erase, the newsletter's list); admins only (AdminOnly). */
import { AdminOnly } from "./AdminOnly";
import { useCopy } from "./copy";
import { PrivacyPanel } from "./PrivacyPanel";
import { PageTitle } from "./ui";

export default function PrivacyPage() {
  return <AdminOnly>{() => <Privacy />}</AdminOnly>;
}

function Privacy() {
  const { copy } = useCopy();
  return (
    <div className="container-page py-8 sm:py-12">
      <PageTitle title={copy.layout.titles.privacy} />
      <PrivacyPanel />
    </div>
  );
}
