/**
 * The signed-in person's second factors, an island that stands on its own: two-step codes from an
 * authenticator app (set up with a QR code and a first code; recovery codes shown once, to copy or
 * download), passkeys (add, rename, remove), the email that security notices go to, and for admins
 * the setting that every account must have a factor. A session limited to setting one up sees only
 * the set-up, then a way on.
 */
import { useCallback, useEffect, useId, useState, type SubmitEvent } from "react";
import type { FactorsAnswer, PasskeyInfo, TotpSetupAnswer } from "#shared/api/factors.ts";
import { showToast } from "#src/stores/toasts.ts";
import { ApiError, fetchCurrentUser, homeOf } from "../api";
import { useAdminCopy, useCopy, type AdminText } from "../copy";
import {
  BusyButton,
  ConfirmAction,
  ErrorNote,
  Field,
  iconPaths,
  inputClass,
  PageSpinner,
  Section,
  Toggle,
} from "../ui";
import {
  addPasskey,
  confirmTotp,
  fetchFactors,
  regenerateRecoveryCodes,
  removePasskey,
  removeTotp,
  renamePasskey,
  saveEmail,
  saveRequirement,
  startTotp,
} from "./factors-api";

type Copy = AdminText["copy"]["factors"];

/** The message of a failed call, in the panel's words where the API names the refusal. */
function failure(error: unknown, c: Copy, fallback: string): string {
  if (error instanceof ApiError) {
    const code = (error.data as { code?: string } | null)?.code;
    if (code === "lastFactor") return c.lastFactor;
    if (error.status === 403) return c.wrongSecret;
    if (error.status === 429) return c.tooMany;
  }
  return fallback;
}

/**
 * `embedded`: a part of the Security page (its cards among the page's sections); otherwise the page
 * /admin/factors of its own, where a session limited to setting up a factor is sent.
 */
export default function Factors({ embedded = false }: { embedded?: boolean }) {
  const texts = useAdminCopy();
  return texts ? <FactorsPanel embedded={embedded} /> : <PageSpinner />;
}

function FactorsPanel({ embedded }: { embedded: boolean }) {
  const { copy } = useCopy();
  const c = copy.factors;
  const [state, setState] = useState<FactorsAnswer | null>(null);
  const [error, setError] = useState(false);
  const reload = useCallback(
    () =>
      fetchFactors().then(
        (answer) => setState(answer),
        () => setError(true),
      ),
    [],
  );
  useEffect(() => {
    let active = true;
    fetchFactors().then(
      (answer) => active && setState(answer),
      () => active && setError(true),
    );
    return () => {
      active = false;
    };
  }, []);

  if (error) return <ErrorNote className="m-6">{copy.common.tryAgain}</ErrorNote>;
  if (!state) return <PageSpinner label={c.loading} />;
  const hasFactor = state.totp || state.passkeys.length > 0;
  return (
    <div className={embedded ? "grid gap-8" : "container-page flex flex-col gap-6 py-8"} data-testid="factors">
      {!embedded && (
        <header>
          <h1 className="text-2xl font-bold tracking-tight text-brand-950">{c.title}</h1>
          <p className="mt-1 max-w-3xl text-muted">{c.intro}</p>
        </header>
      )}
      {state.limited && (
        <div role="status" className="rounded-xl border border-amber-500/40 bg-amber-50 px-4 py-3 text-amber-950">
          {hasFactor ? <ContinueLink /> : c.setupRequired}
        </div>
      )}
      <TotpCard state={state} onChange={reload} />
      <PasskeysCard passkeys={state.passkeys} onChange={reload} />
      {!state.limited && <EmailCard email={state.email} />}
      {!state.limited && state.admin && <PolicyCard required={state.required} />}
    </div>
  );
}

/** After a limited session's first factor: on to where the person works. */
function ContinueLink() {
  const { copy } = useCopy();
  const [href, setHref] = useState("/admin/");
  useEffect(() => {
    fetchCurrentUser()
      .then((user) => user && setHref(homeOf(user)))
      .catch(() => {});
  }, []);
  return (
    <p>
      {copy.factors.setupDone}{" "}
      <a href={href} className="font-semibold underline">
        {copy.factors.continue}
      </a>
    </p>
  );
}

const codeInputClass = `${inputClass} max-w-48 font-mono tracking-widest`;

function TotpCard({ state, onChange }: { state: FactorsAnswer; onChange: () => Promise<void> }) {
  const { copy, p } = useCopy();
  const c = copy.factors;
  const [setup, setSetup] = useState<TotpSetupAnswer | null>(null);
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [secret, setSecret] = useState("");
  const [asking, setAsking] = useState<"remove" | "regenerate" | null>(null);

  const begin = async () => {
    setBusy(true);
    setProblem(null);
    try {
      setSetup(await startTotp());
    } catch (error) {
      setProblem(failure(error, c, copy.common.tryAgain));
    } finally {
      setBusy(false);
    }
  };
  const confirm = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      const answer = await confirmTotp(code.trim());
      setCodes(answer.recoveryCodes);
      setSetup(null);
      setCode("");
      showToast({ title: c.totp.enabled, variant: "success" });
      await onChange();
    } catch (error) {
      setProblem(
        error instanceof ApiError && error.status === 403 ? c.totp.wrongCode : failure(error, c, copy.common.tryAgain),
      );
    } finally {
      setBusy(false);
    }
  };
  const reauth = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      if (asking === "remove") {
        await removeTotp(secret);
        showToast({ title: c.totp.removed, variant: "success" });
        setCodes(null);
      } else {
        setCodes((await regenerateRecoveryCodes(secret)).recoveryCodes);
      }
      setAsking(null);
      setSecret("");
      await onChange();
    } catch (error) {
      setProblem(failure(error, c, copy.common.tryAgain));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Section title={c.totp.title} intro={c.totp.intro} icon={iconPaths.shield} data-testid="totp">
      <p className="mt-3 text-sm font-semibold" data-testid="totp-status">
        {state.totp ? c.on : c.off}
        {state.totp && (
          <span className="ms-2 font-normal text-muted">{p(c.recovery.left, state.recoveryCodesLeft)}</span>
        )}
      </p>
      {!state.totp && !setup && (
        <BusyButton
          primary
          busy={busy}
          label={c.totp.start}
          busyLabel={c.totp.starting}
          onClick={begin}
          className="mt-4"
        />
      )}
      {setup && (
        <form onSubmit={confirm} className="mt-4 flex flex-col gap-4" noValidate>
          <p className="text-sm">{c.totp.scan}</p>
          <svg
            viewBox={`0 0 ${setup.qr.size} ${setup.qr.size}`}
            role="img"
            aria-label={c.totp.qrLabel}
            className="size-52 rounded-lg border border-line"
            shapeRendering="crispEdges"
            data-testid="totp-qr"
          >
            <rect width={setup.qr.size} height={setup.qr.size} fill="#ffffff" />
            <path d={setup.qr.path} fill="#000000" />
          </svg>
          <p className="text-sm">
            {c.totp.secretLabel}:{" "}
            <code
              className="rounded bg-brand-50 px-1.5 py-0.5 font-mono break-all"
              translate="no"
              dir="ltr"
              data-testid="totp-secret"
            >
              {setup.secret}
            </code>
          </p>
          <Field label={c.totp.code} help={c.totp.codeHelp} error={problem}>
            {(props) => (
              <input
                {...props}
                value={code}
                onChange={(e) => setCode(e.target.value)}
                autoComplete="one-time-code"
                inputMode="numeric"
                pattern="[0-9 ]*"
                maxLength={7}
                dir="ltr"
                className={codeInputClass}
              />
            )}
          </Field>
          <div className="flex flex-wrap gap-2">
            <BusyButton type="submit" primary busy={busy} label={c.totp.confirm} busyLabel={c.totp.confirming} />
            <button type="button" className="btn btn-secondary" onClick={() => setSetup(null)}>
              {c.cancel}
            </button>
          </div>
        </form>
      )}
      {!setup && problem && !asking && <ErrorNote className="mt-3">{problem}</ErrorNote>}
      {codes && <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />}
      {state.totp && !state.limited && !codes && (
        <div className="mt-4 flex flex-col gap-3">
          {!asking && (
            <div className="flex flex-wrap gap-2">
              <button type="button" className="btn btn-secondary" onClick={() => setAsking("regenerate")}>
                {c.recovery.regenerate}
              </button>
              <button type="button" className="btn btn-secondary" onClick={() => setAsking("remove")}>
                {c.totp.remove}
              </button>
            </div>
          )}
          {asking && (
            <form onSubmit={reauth} className="flex flex-col gap-3" noValidate>
              <p className="text-sm">{asking === "remove" ? c.totp.removeHelp : c.recovery.regenerateHelp}</p>
              <Field label={c.password} error={problem}>
                {(props) => (
                  <input
                    {...props}
                    type="password"
                    autoComplete="current-password"
                    value={secret}
                    onChange={(e) => setSecret(e.target.value)}
                    className={`${inputClass} max-w-sm`}
                  />
                )}
              </Field>
              <div className="flex flex-wrap gap-2">
                <BusyButton
                  type="submit"
                  danger={asking === "remove"}
                  primary={asking !== "remove"}
                  busy={busy}
                  label={asking === "remove" ? c.totp.remove : c.recovery.regenerate}
                  busyLabel={c.working}
                />
                <button
                  type="button"
                  className="btn btn-secondary"
                  onClick={() => {
                    setAsking(null);
                    setProblem(null);
                  }}
                >
                  {c.cancel}
                </button>
              </div>
            </form>
          )}
        </div>
      )}
    </Section>
  );
}

/** The recovery codes, this once: to copy or download, then gone. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { copy } = useCopy();
  const c = copy.factors.recovery;
  const [copied, setCopied] = useState(false);
  const text = codes.join("\n");
  const [href] = useState(() => URL.createObjectURL(new Blob([`${text}\n`], { type: "text/plain" })));
  useEffect(() => () => URL.revokeObjectURL(href), [href]);
  const titleId = useId();
  return (
    <div className="mt-4 rounded-xl border border-amber-500/40 bg-amber-50 p-4" aria-labelledby={titleId} role="group">
      <h3 id={titleId} className="font-semibold text-amber-950">
        {c.title}
      </h3>
      <p className="mt-1 text-sm text-amber-950">{c.shownOnce}</p>
      <ul
        className="mt-3 grid grid-cols-2 gap-x-6 gap-y-1 font-mono sm:max-w-md"
        dir="ltr"
        translate="no"
        data-testid="recovery-codes"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="mt-4 flex flex-wrap gap-2">
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() =>
            void navigator.clipboard?.writeText(text).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? c.copied : c.copy}
        </button>
        <a className="btn btn-secondary" href={href} download={c.fileName}>
          {c.download}
        </a>
        <button type="button" className="btn btn-primary" onClick={onDone}>
          {c.done}
        </button>
      </div>
    </div>
  );
}

function PasskeysCard({ passkeys, onChange }: { passkeys: PasskeyInfo[]; onChange: () => Promise<void> }) {
  const { copy } = useCopy();
  const c = copy.factors.passkeys;
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const supported = typeof window !== "undefined" && "PublicKeyCredential" in window;

  const add = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      await addPasskey(name.trim() || c.defaultName);
      setName("");
      showToast({ title: c.added, variant: "success" });
      await onChange();
    } catch (error) {
      const cancelled = error instanceof Error && (error.name === "NotAllowedError" || error.name === "AbortError");
      setProblem(cancelled ? c.cancelled : failure(error, copy.factors, copy.common.tryAgain));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Section title={c.title} intro={c.intro} icon={iconPaths.shield} data-testid="passkeys">
      {passkeys.length === 0 ? (
        <p className="mt-3 text-sm text-muted">{c.none}</p>
      ) : (
        <ul className="mt-4 divide-y divide-line rounded-xl border border-line">
          {passkeys.map((passkey) => (
            <PasskeyRow key={passkey.id} passkey={passkey} onChange={onChange} />
          ))}
        </ul>
      )}
      {supported ? (
        <form onSubmit={add} className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end" noValidate>
          <Field label={c.name} className="sm:w-72" error={problem}>
            {(props) => (
              <input
                {...props}
                value={name}
                maxLength={60}
                placeholder={c.namePlaceholder}
                onChange={(e) => setName(e.target.value)}
                autoComplete="off"
                className={inputClass}
              />
            )}
          </Field>
          <BusyButton type="submit" primary busy={busy} label={c.add} busyLabel={c.adding} />
        </form>
      ) : (
        <p className="mt-3 text-sm text-muted">{c.unsupported}</p>
      )}
    </Section>
  );
}

function PasskeyRow({ passkey, onChange }: { passkey: PasskeyInfo; onChange: () => Promise<void> }) {
  const { copy, f, dateTime } = useCopy();
  const c = copy.factors.passkeys;
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(passkey.name);
  const [busy, setBusy] = useState(false);
  const nameId = useId();
  const save = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    try {
      await renamePasskey(passkey.id, name.trim());
      setEditing(false);
      showToast({ title: c.renamed, variant: "success" });
      await onChange();
    } catch (error) {
      showToast({
        title: copy.factors.failed,
        description: failure(error, copy.factors, copy.common.tryAgain),
        variant: "destructive",
      });
    } finally {
      setBusy(false);
    }
  };
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between" data-testid="passkey">
      {editing ? (
        <form onSubmit={save} className="flex flex-1 flex-wrap items-end gap-2">
          <Field label={c.name} className="w-full sm:w-72">
            {(props) => (
              <input
                {...props}
                value={name}
                maxLength={60}
                onChange={(e) => setName(e.target.value)}
                className={inputClass}
              />
            )}
          </Field>
          <BusyButton type="submit" primary busy={busy} label={c.save} busyLabel={copy.factors.working} />
          <button type="button" className="btn btn-secondary" onClick={() => setEditing(false)}>
            {copy.factors.cancel}
          </button>
        </form>
      ) : (
        <div className="min-w-0">
          <p id={nameId} className="font-semibold break-words text-ink">
            {passkey.name}
          </p>
          <p className="text-sm text-muted">
            {f(c.created, { date: dateTime(passkey.createdAt) })} ·{" "}
            {passkey.lastUsedAt ? f(c.lastUsed, { date: dateTime(passkey.lastUsedAt) }) : c.neverUsed}
          </p>
        </div>
      )}
      {!editing && (
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className="btn btn-secondary"
            aria-describedby={nameId}
            onClick={() => setEditing(true)}
          >
            {c.rename}
          </button>
          <ConfirmAction
            label={c.remove}
            question={c.removeQuestion}
            confirmLabel={c.remove}
            busyLabel={c.removing}
            icon={iconPaths.trash}
            describedBy={nameId}
            onConfirm={async () => {
              try {
                await removePasskey(passkey.id);
                showToast({ title: c.removed, variant: "success" });
                await onChange();
                return true;
              } catch (error) {
                showToast({
                  title: copy.factors.failed,
                  description: failure(error, copy.factors, copy.common.tryAgain),
                  variant: "destructive",
                });
                return false;
              }
            }}
          />
        </div>
      )}
    </li>
  );
}

function EmailCard({ email }: { email: string | null }) {
  const { copy } = useCopy();
  const c = copy.factors.email;
  const [value, setValue] = useState(email ?? "");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const save = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      await saveEmail(value.trim());
      showToast({ title: value.trim() ? c.saved : c.removed, variant: "success" });
    } catch (error) {
      setProblem(error instanceof ApiError && error.status === 400 ? c.invalid : copy.common.tryAgain);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Section title={c.title} intro={c.intro} icon={iconPaths.shield} data-testid="security-email">
      <form onSubmit={save} className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end" noValidate>
        <Field label={c.label} note={c.optional} className="sm:w-96" error={problem}>
          {(props) => (
            <input
              {...props}
              type="email"
              autoComplete="email"
              dir="ltr"
              value={value}
              onChange={(e) => setValue(e.target.value)}
              className={inputClass}
            />
          )}
        </Field>
        <BusyButton type="submit" primary busy={busy} label={c.save} busyLabel={copy.factors.working} />
      </form>
    </Section>
  );
}

function PolicyCard({ required }: { required: boolean }) {
  const { copy } = useCopy();
  const c = copy.factors.policy;
  const [on, setOn] = useState(required);
  const change = async (next: boolean) => {
    setOn(next);
    try {
      setOn((await saveRequirement(next)).requireSecondFactor);
      showToast({ title: c.saved, variant: "success" });
    } catch {
      setOn(!next);
      showToast({ title: copy.factors.failed, description: copy.common.tryAgain, variant: "destructive" });
    }
  };
  return (
    <Section title={c.title} icon={iconPaths.shield} data-testid="factor-policy">
      <div className="mt-3">
        <Toggle checked={on} onChange={(next) => void change(next)} help={c.help}>
          {c.label}
        </Toggle>
      </div>
    </Section>
  );
}
