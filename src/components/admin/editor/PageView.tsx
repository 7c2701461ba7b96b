/** The content editor's browsing view: a page's sections (folded), or the testimonials and the team as forms. */
import { useState, type ReactNode } from "react";
import type { ContentAnswer, PublishStatus } from "#shared/api/content.ts";
import { useCopy } from "../copy";
import { Field, Segmented } from "../ui";
import { AddTeamMember } from "./AddTeamMember";
import { sectionLabel } from "./sections";

type View = "pages" | "testimonials" | "team";

export function PageView({
  data,
  block,
  onMemberAdded,
}: {
  data: ContentAnswer;
  block: (key: string, title?: string) => ReactNode;
  /** A team member was added (the form under Team): the texts are loaded again. */
  onMemberAdded: (publish: PublishStatus, at: string | null) => void;
}) {
  const { copy, n, lang } = useCopy();
  const tx = copy.editor;
  const [view, setView] = useState<View>("pages");
  const [pageName, setPageName] = useState(data.pages[0]?.name ?? "");
  /** Per page, the sections unfolded (the first one until the editor chooses). */
  const [openSections, setOpenSections] = useState<Record<string, string[]>>({});
  const page = data.pages.find((x) => x.name === pageName) ?? data.pages[0];
  /** A page's name in the panel's language, by its first section (the outline names pages in English). */
  const pageTitle = (p: ContentAnswer["pages"][number]) =>
    (tx.pages as Record<string, string>)[p.sections[0]?.name ?? ""] ?? p.name;

  return (
    <>
      <Segmented
        label={tx.views.pages}
        value={view}
        onChange={setView}
        options={(["pages", "testimonials", "team"] as const).map((v) => ({ value: v, label: tx.views[v] }))}
        className="mt-6"
      />
      {view === "pages" && page && (
        <section aria-labelledby="page-heading" className="mt-5">
          <Field label={tx.page} className="max-w-md">
            {(p) => (
              <select
                {...p}
                value={page.name}
                onChange={(event) => setPageName(event.target.value)}
                className="block rounded-xl border border-line bg-white px-3.5 py-2.5 text-ink"
              >
                {data.pages.map((x) => (
                  <option key={x.name} value={x.name}>
                    {pageTitle(x)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <h2 id="page-heading" className="mt-5 text-2xl font-bold text-brand-950">
            {pageTitle(page)}
          </h2>
          {page.sections.map((section, index) => {
            const open = openSections[page.name]?.includes(section.name) ?? index === 0;
            return (
              <details
                key={section.name}
                open={open}
                onToggle={(event) => {
                  const isOpen = event.currentTarget.open;
                  if (isOpen === open) return;
                  setOpenSections((all) => {
                    const now = all[page.name] ?? [page.sections[0].name];
                    return {
                      ...all,
                      [page.name]: isOpen ? [...now, section.name] : now.filter((n) => n !== section.name),
                    };
                  });
                }}
                className="mt-5 rounded-2xl bg-slate-50 p-3"
              >
                <summary className="text-lg font-semibold text-brand-900">
                  <span>{sectionLabel(section.name, lang)}</span>{" "}
                  <span className="text-sm font-normal text-muted">({n(section.keys.length)})</span>
                </summary>
                {/* Only an open section's fields are on the page: a page of the site has up to 120 texts. */}
                {open && section.keys.map((key) => block(key))}
              </details>
            );
          })}
        </section>
      )}
      {view !== "pages" && (
        <section aria-labelledby="collection-heading" className="mt-5">
          <h2 id="collection-heading" className="text-2xl font-bold text-brand-950">
            {tx.views[view]}
          </h2>
          {data.collections[view].map((item) => (
            <section key={item.id} aria-labelledby={`item-${item.id}`} className="card mt-5 p-5">
              <h3 id={`item-${item.id}`} className="text-lg font-semibold text-brand-900" translate="no">
                {item.label}
              </h3>
              {Object.entries(item.fields).map(([field, key]) => block(key, field))}
            </section>
          ))}
          {view === "team" && <AddTeamMember data={data} onAdded={onMemberAdded} />}
        </section>
      )}
    </>
  );
}
