/**
 * The lead desk on an enquiry card: "Reply" opens a modal dialog (native <dialog>: focus stays
 * inside, Escape closes) with the lead's messages, sent and received, and a composer: choose a
 * template, fill it in for this lead (in the lead's language), edit, preview, send. The draft is kept
 * in this tab (sessionStorage) until it is sent, so a reload or a failed send loses nothing.
 */
import { useId, useRef, useState, type SubmitEvent } from "react";
import type { LeadMessage, ReplyDeskAnswer } from "#shared/api/replies.ts";
import { REPLY_SUBJECT_MAX, REPLY_TEXT_MAX } from "#shared/schemas/replies.ts";
import { showToast } from "#src/stores/toasts.ts";
import { loadReplyDesk, sendReply } from "../api";
import { useCopy } from "../copy";
import { BusyButton, ErrorNote, Field, Icon, iconPaths, inputClass, Loading, MailText, useAction } from "../ui";

type Draft = { subject: string; text: string };
const EMPTY: Draft = { subject: "", text: "" };
const TEMPLATES = ["firstAnswer", "askDocuments", "proposeMeeting"] as const;

/** The draft of one lead's reply, kept in this tab's sessionStorage while it is written; `restore` reads it back. */
function useDraft(id: number): [Draft, (next: Draft) => void, () => void] {
  const key = `reply-draft-${id}`;
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const restore = () => {
    try {
      const saved = JSON.parse(sessionStorage.getItem(key) ?? "null") as Partial<Draft> | null;
      if (saved && typeof saved.subject === "string" && typeof saved.text === "string")
        setDraft({ subject: saved.subject, text: saved.text });
    } catch {
      // No storage (private mode) or a broken entry: the draft in the dialog stands.
    }
  };
  const save = (next: Draft) => {
    setDraft(next);
    try {
      if (next.subject || next.text) sessionStorage.setItem(key, JSON.stringify(next));
      else sessionStorage.removeItem(key);
    } catch {
      // The draft still lives in the dialog.
    }
  };
  return [draft, save, restore];
}

export function ReplyComposer({ id, name, describedBy }: { id: number; name: string; describedBy: string }) {
  const { copy, f, dateTime } = useCopy();
  const c = copy.replies;
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [desk, setDesk] = useState<ReplyDeskAnswer | null>(null);
  const [template, setTemplate] = useState<(typeof TEMPLATES)[number]>("firstAnswer");
  const [draft, setDraft, restoreDraft] = useDraft(id);
  const [previewing, setPreviewing] = useState(false);
  const load = useAction<"desk" | "template">();
  const sending = useAction<"send">();

  const open = () => {
    restoreDraft();
    dialog.current?.showModal();
    void load.run(async () => setDesk(await loadReplyDesk(id)), c.loadError, "desk");
  };
  const fillTemplate = () =>
    load.run(
      async () => {
        const answer = await loadReplyDesk(id, template);
        setDesk(answer);
        if (answer.preview) setDraft({ subject: answer.preview.subject, text: answer.preview.text });
        setPreviewing(false);
      },
      c.loadError,
      "template",
    );
  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const ok = await sending.run(
      async () => {
        const { message } = await sendReply(id, { subject: draft.subject.trim(), text: draft.text.trim() });
        setDesk((d) => d && { ...d, messages: [...d.messages, message] });
      },
      copy.common.tryAgain,
      "send",
    );
    if (ok) {
      setDraft(EMPTY);
      setPreviewing(false);
      showToast({ title: c.sent, variant: "success" });
    }
  };

  const lead = desk?.lead;
  const dir = lead?.dir ?? "auto";
  return (
    <>
      <button
        type="button"
        onClick={open}
        aria-describedby={describedBy}
        aria-haspopup="dialog"
        className="btn btn-secondary whitespace-nowrap px-4"
      >
        <Icon path={iconPaths.mail} />
        {c.open}
      </button>
      <dialog
        ref={dialog}
        aria-labelledby={titleId}
        className="m-auto max-h-[calc(100dvh-2rem)] w-[min(100%-2rem,42rem)] overflow-y-auto rounded-2xl bg-white p-6 text-ink shadow-lift backdrop:bg-brand-950/50"
      >
        <div className="flex items-start justify-between gap-4">
          <h2 id={titleId} className="text-lg font-bold text-brand-950">
            {f(c.title, { name })}
          </h2>
          <button type="button" onClick={() => dialog.current?.close()} className="btn btn-secondary min-h-11 px-3">
            {c.close}
          </button>
        </div>
        <section aria-label={c.messages} className="mt-4">
          <h3 className="text-sm font-semibold text-ink">{c.messages}</h3>
          {load.busy === "desk" && !desk ? (
            <Loading>{c.loading}</Loading>
          ) : desk?.messages.length ? (
            <ol className="mt-2 flex flex-col gap-2">
              {desk.messages.map((m) => (
                <MessageItem
                  key={m.id}
                  message={m}
                  label={m.direction === "out" ? f(c.outgoing, { name: m.sentBy ?? "" }) : c.incoming}
                  when={dateTime(m.createdAt)}
                />
              ))}
            </ol>
          ) : (
            desk && <p className="mt-2 text-sm text-muted">{c.noMessages}</p>
          )}
        </section>
        {lead?.erased ? (
          <p className="mt-4 text-sm font-medium text-red-800">{c.erased}</p>
        ) : (
          <form onSubmit={(e) => void submit(e)} className="mt-6 flex flex-col gap-4">
            <div className="flex flex-wrap items-end gap-2">
              <Field label={c.template} className="grow">
                {(props) => (
                  <select
                    {...props}
                    value={template}
                    onChange={(e) => setTemplate(e.target.value as (typeof TEMPLATES)[number])}
                    className={inputClass}
                  >
                    {TEMPLATES.map((t) => (
                      <option key={t} value={t}>
                        {c.templates[t]}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              <BusyButton busy={load.busy === "template"} label={c.useTemplate} onClick={() => void fillTemplate()} />
            </div>
            <Field label={c.subject}>
              {(props) => (
                <input
                  {...props}
                  value={draft.subject}
                  onChange={(e) => setDraft({ ...draft, subject: e.target.value })}
                  maxLength={REPLY_SUBJECT_MAX}
                  required
                  dir={dir}
                  className={inputClass}
                />
              )}
            </Field>
            {previewing ? (
              <div className="rounded-xl bg-slate-50 p-4 ring-1 ring-inset ring-slate-200">
                <MailText text={draft.subject} dir={lead?.dir} className="font-semibold" />
                <MailText
                  text={draft.text}
                  dir={lead?.dir}
                  className="mt-3 whitespace-pre-wrap [overflow-wrap:anywhere]"
                />
              </div>
            ) : (
              <Field label={c.body}>
                {(props) => (
                  <textarea
                    {...props}
                    value={draft.text}
                    onChange={(e) => setDraft({ ...draft, text: e.target.value })}
                    maxLength={REPLY_TEXT_MAX}
                    required
                    rows={12}
                    dir={dir}
                    className={inputClass}
                  />
                )}
              </Field>
            )}
            <ErrorNote>{load.error ?? sending.error}</ErrorNote>
            <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
              <button type="button" onClick={() => setPreviewing(!previewing)} className="btn btn-secondary">
                {previewing ? c.edit : c.preview}
              </button>
              <BusyButton
                type="submit"
                primary
                busy={sending.busy === "send"}
                disabled={!draft.subject.trim() || !draft.text.trim()}
                label={c.send}
                busyLabel={c.sending}
              />
            </div>
          </form>
        )}
      </dialog>
    </>
  );
}

function MessageItem({ message, label, when }: { message: LeadMessage; label: string; when: string }) {
  const incoming = message.direction === "in";
  return (
    <li
      className={`rounded-xl p-3 ring-1 ring-inset ${incoming ? "bg-emerald-50 ring-emerald-200" : "bg-slate-50 ring-slate-200"}`}
    >
      <p className="text-xs text-muted">
        {label} · <time dateTime={message.createdAt}>{when}</time>
      </p>
      <MailText text={message.subject} className="mt-1 font-semibold [overflow-wrap:anywhere]" />
      <MailText
        text={message.text}
        className="mt-1 max-h-48 overflow-y-auto whitespace-pre-wrap text-sm [overflow-wrap:anywhere]"
      />
    </li>
  );
}
