/** A lead's card in the desk's list: the person, their enquiry, its stage, owner, follow-up, reply and note. */
import type { AdminEnquiry } from "#shared/api/enquiries.ts";
import { serviceDisplayName, type ServiceNames } from "#shared/services.ts";
import { textDirection } from "#shared/format.ts";
import { saveEnquiryNote } from "../api";
import { useCopy } from "../copy";
import { LeadPlan } from "../leads/LeadPlan";
import { MoveControl } from "../leads/MoveControl";
import { ReplyComposer } from "../leads/ReplyComposer";
import { NoteEditor } from "../NoteEditor";
import { LeadSourceField } from "../sources/LeadSource.tsx";
import type { CardControls, ReplaceItem } from "../StatusList";
import { Badge, ConfirmAction, iconPaths } from "../ui";
import { Card, Field, Stamp, ToggleButton } from "./Card";

export function EnquiryCard({
  item,
  controls,
  replace,
  serviceNames,
}: {
  item: AdminEnquiry;
  controls: CardControls;
  replace: ReplaceItem<AdminEnquiry>;
  serviceNames: ServiceNames;
}) {
  const { copy, languageName } = useCopy();
  const c = copy.cards;
  const titleId = `enquiry-${item.id}-title`;
  return (
    <Card
      id={`enquiry-${item.id}`}
      title={`${item.firstName} ${item.lastName}`}
      email={item.email}
      emailStatus={item.emailStatus}
      note={
        <NoteEditor
          note={item.note}
          describedBy={titleId}
          reference={item.reference}
          save={async (text) => replace(await saveEnquiryNote(item.id, text))}
        />
      }
      badge={
        <Badge tone={item.stage === "new" ? "pending" : item.stage === "lost" ? "off" : "done"}>
          {copy.leads.stages[item.stage]}
        </Badge>
      }
      footer={
        <>
          <div>
            <p className="text-xs font-semibold text-muted" dir="ltr" translate="no">
              {item.reference}
            </p>
            <Stamp label={c.submittedOn} iso={item.createdAt} />
          </div>
          <div className="flex flex-wrap gap-2 sm:justify-end">
            <ReplyComposer id={item.id} name={item.firstName} describedBy={titleId} />
            {(item.stage === "new" || item.stage === "replied") && (
              <ToggleButton
                done={item.stage === "replied"}
                doLabel={c.markReplied}
                undoLabel={c.backToNew}
                describedBy={titleId}
                controls={controls}
              />
            )}
            <MoveControl lead={item} describedBy={titleId} onMoved={replace} />
            {controls.remove && (
              <ConfirmAction
                label={c.delete}
                question={c.deleteQuestion}
                confirmLabel={c.deleteForGood}
                busyLabel={c.deleting}
                icon={iconPaths.trash}
                describedBy={titleId}
                disabled={controls.pending}
                onConfirm={controls.remove}
              />
            )}
          </div>
        </>
      }
    >
      <Field label={c.company}>
        {item.company ? (
          <span className="[overflow-wrap:anywhere]" dir="auto" translate="no">
            {item.company}
          </span>
        ) : (
          <span className="text-muted italic">{c.notProvided}</span>
        )}
      </Field>
      <Field label={c.service}>{serviceDisplayName(item.service, serviceNames)}</Field>
      <Field label={c.language}>{languageName(item.language)}</Field>
      <LeadSourceField source={item.source} />
      <Field label={c.message} wide>
        <span
          data-testid="message"
          dir={textDirection(item.message) ?? "auto"}
          translate="no"
          className="block rounded-xl bg-surface px-3.5 py-3 leading-relaxed whitespace-pre-line [overflow-wrap:anywhere]"
        >
          {item.message}
        </span>
      </Field>
      {/* Its controls carry their own labels: the term is for the list's structure, read out only. */}
      <div className="col-span-full">
        <dt className="sr-only">{`${copy.leads.owner}, ${copy.leads.followUp}`}</dt>
        <dd>
          <LeadPlan lead={item} onChanged={replace} describedBy={titleId} />
        </dd>
      </div>
    </Card>
  );
}
