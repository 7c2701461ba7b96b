/**
 * The one way an admin-only page (the leads, the meetings, Sources, availability, the privacy tools, the
 * audit record) treats an editor: it says the page is for admins, in the panel's language, with the
 * way to the site's texts, and asks the server nothing (every call would be refused with a 403). A
 * page of several islands says it once: its first island is the gate, the others are `quiet`.
 */
import type { ReactNode } from "react";
import type { PanelUser } from "#shared/api/panel-language.ts";
import { TEXTS_PATH } from "./api";
import { useAdminCopy, useCopy } from "./copy";
import { useSignedIn } from "./session";
import { Icon, iconPaths, PageSpinner } from "./ui";

export function AdminOnly({
  quiet = false,
  children,
}: {
  /** Show nothing but the page itself: another island of the page shows the spinner and the notice. */
  quiet?: boolean;
  children: (admin: PanelUser) => ReactNode;
}) {
  const texts = useAdminCopy();
  const user = useSignedIn();
  if (!texts || !user) return quiet ? null : <PageSpinner label={texts?.copy.common.checkingSession} />;
  if (user.role !== "admin") return quiet ? null : <AdminsOnlyNotice />;
  return children(user);
}

/** "For admins only": the page's heading, why, and the link to the site's texts. */
function AdminsOnlyNotice() {
  const { copy } = useCopy();
  const c = copy.common.adminsOnly;
  return (
    <div data-testid="admins-only" className="container-page py-8 sm:py-12">
      <div className="card mx-auto flex max-w-xl flex-col items-center px-6 py-12 text-center sm:py-16">
        <span className="flex size-12 items-center justify-center rounded-full bg-brand-50 text-brand-700">
          <Icon path={iconPaths.shield} className="size-6" />
        </span>
        <h1 className="mt-4 text-2xl font-bold text-brand-950">{c.title}</h1>
        <p className="mt-2 max-w-sm text-muted">{c.text}</p>
        <a href={TEXTS_PATH} className="btn btn-primary mt-6">
          <Icon path={iconPaths.pencil} />
          {c.link}
        </a>
      </div>
    </div>
  );
}
