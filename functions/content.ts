/**
 * The content editor's API, for editors and admins (requireEditor):
 * GET /api/content/texts → every text in three languages, grouped page → section → text, with each
 * file's revision, the review flags and the copy rules; PUT → saves changed texts (the copy check
 * first, 400 with each field's problems; 409 when another editor changed the same text since it was
 * loaded; other changes are merged) and commits them with the editor as author;
 * POST /api/content/reviewed → marks translations reviewed; GET /api/content/status → the last
 * save's publishing state; GET /api/content/history → the latest publishes and undos; POST
 * /api/content/undo → publishes the reverse of one of them as a new commit; POST /api/content/team →
 * adds a team member to src/data/team.json (its id from the English name, 409 when taken), checked
 * by the site's schema and the copy rules, committed the same way.
 */
import type { Config, Context } from "@netlify/functions";
import { getDb } from "#db/client.ts";
import type {
  ContentAnswer,
  HistoryAnswer,
  PublishStatus,
  SaveAnswer,
  TeamAddAnswer,
  TextChange,
} from "#shared/api/content.ts";
import type { CurrentUser } from "#shared/api/people.ts";
import type { TextAddress } from "#shared/api/common.ts";
import { newTeamMemberSchema, reviewedSchema, textChangesSchema, undoSchema } from "#shared/schemas/content.ts";
import { UNDO_REFUSALS } from "#shared/api/content.ts";
import { englishLanguageName, LANGUAGES, SOURCE_LANGUAGE } from "#shared/languages.ts";
import { ROUTES } from "#shared/routes.ts";
import { site } from "#config/site.ts";
import {
  ALL_PATHS,
  applyChanges,
  checkChanges,
  CONTENT_PATHS,
  commitMessage,
  conflictsOf,
  isKnownText,
  normalise,
  pagesOf,
  parseTexts,
  reviewedFile,
  reviewsOf,
  revisionOf,
  rulesOf,
  UnknownTextError,
  type Files,
} from "./_lib/texts/texts.ts";
import { addMember } from "./_lib/texts/team.ts";
import { lookAgain } from "./_lib/booking/team.ts";
import { entryOf, listHistory, recorded, textsChanged, undoOf } from "./_lib/texts/history.ts";
import { audit } from "./_lib/auth/audit.ts";
import { isReplyTemplate } from "./_lib/mail/replies.ts";
import { requireEditor } from "./_lib/auth/auth.ts";
import { HttpError, json, readJson, requireSameOrigin, route, routes, validate } from "./_lib/http/http.ts";
import { PublishError, StaleSnapshotError } from "./_lib/publish/errors.ts";
import { publisher } from "./_lib/publish/provider.ts";
import type { Publisher, Snapshot } from "./_lib/publish/types.ts";

/** How many publishes and undos the history lists. */
const HISTORY_LENGTH = 50;

/** Saves that raced other commits are read again and merged this many times before giving up. */
const ATTEMPTS = 4;

const revisions = (files: Files) => Object.fromEntries([...files].map(([p, text]) => [p, revisionOf(text)]));

const author = (user: CurrentUser) => ({
  name: user.username.replace(/[\p{Cc}<>\u2028\u2029]+/gu, " ").trim(),
  email: `${user.username.toLowerCase().replace(/[^a-z0-9._-]/g, "-")}@editors.${new URL(site.url).hostname}`,
});

async function read(pub: Publisher): Promise<Snapshot> {
  try {
    return await pub.read(ALL_PATHS);
  } catch (error) {
    throw unavailable(error);
  }
}

function unavailable(error: unknown): unknown {
  if (!(error instanceof PublishError)) return error;
  console.error(`[content] ${error.message}`);
  return new HttpError(
    503,
    "The site's texts cannot be reached just now. Nothing was saved; please try again in a minute.",
  );
}

/**
 * Commits what `change` makes of the files as they are now; when the branch moved meanwhile, reads
 * again and asks `change` again (so another editor's commit is merged, or reported as a conflict).
 */
async function commitWithRetry(
  pub: Publisher,
  change: (files: Files) => { changed: Map<string, string>; message: string } | null,
  user: CurrentUser,
) {
  const attempts = async () => {
    for (let attempt = 1; ; attempt++) {
      const snapshot = await read(pub);
      const made = change(snapshot.files);
      if (!made || !made.changed.size) return { snapshot, files: snapshot.files as Files, commit: null, at: null };
      try {
        const { commit, at } = await pub.commit(snapshot, made.changed, made.message, author(user));
        const files = new Map([...snapshot.files, ...made.changed]);
        return { snapshot, files: files as Files, commit, at };
      } catch (error) {
        if (error instanceof StaleSnapshotError && attempt < ATTEMPTS) continue;
        throw error;
      }
    }
  };
  try {
    // Where the publisher can (local git), the read, the change and the commit are one step under its lock.
    return await (pub.serialise ? pub.serialise(attempts) : attempts());
  } catch (error) {
    if (error instanceof StaleSnapshotError)
      throw new HttpError(409, "Others are saving texts right now. Nothing was saved; please save again.");
    throw unavailable(error);
  }
}

/** 400 for texts the site does not have (or keys naming a prototype), before anything is applied. */
function requireKnownTexts(parsed: ReturnType<typeof parseTexts>, texts: readonly TextAddress[]) {
  const unknown = texts.filter((t) => !isKnownText(parsed, t.key));
  if (unknown.length)
    throw new HttpError(400, `There is no text “${unknown[0].key}” on the site.`, {
      errors: Object.fromEntries(unknown.map((t) => [`${t.lang}:${t.key}`, ["This text does not exist (any more)."]])),
    });
}

/**
 * The files with `changes` written in, checked as the site's tests check them (400 with each field's
 * problems otherwise); a translation saved by an editor has been looked at, so its review flag goes.
 */
function writeChanges(
  files: Files,
  before: ReturnType<typeof parseTexts>,
  changes: readonly (TextAddress & { value: string })[],
) {
  let changed: Map<string, string>;
  let errors: Record<string, string[]>;
  try {
    changed = applyChanges(files, before, changes);
    const after = parseTexts(new Map([...files, ...changed]));
    errors = checkChanges(before, after, changes);
    if (!Object.keys(errors).length) {
      const reviewed = reviewedFile(
        after,
        changes.filter((c) => c.lang !== SOURCE_LANGUAGE),
      );
      if (reviewed && reviewed !== files.get(CONTENT_PATHS.reviewed)) changed.set(CONTENT_PATHS.reviewed, reviewed);
    }
  } catch (error) {
    if (error instanceof UnknownTextError)
      throw new HttpError(400, `There is no text “${error.message}” on the site.`, {
        errors: { [error.message]: ["This text does not exist (any more)."] },
      });
    throw error;
  }
  if (Object.keys(errors).length)
    throw new HttpError(400, "Some texts need a change before they can be published.", { errors });
  return changed;
}

/** The audit entry of a publish or an undo: the history (functions/_lib/texts/history.ts) reads it. */
const auditTexts = (
  req: Request,
  context: Partial<Context>,
  user: CurrentUser,
  action: "text.publish" | "text.undo",
  commit: string,
  changes: readonly TextChange[],
  undoes?: string,
) =>
  audit(getDb(), req, context, user, action, {
    target: changes
      .slice(0, 50)
      .map((c) => `${c.lang}:${c.key}`)
      .join(", "),
    detail: { commit, ...(undoes ? { undoes } : {}), ...recorded(changes) },
  });

/** The locale group of the reply templates (functions/_lib/mail/replies.ts): a text under it is part of a template. */
const REPLY_GROUP = "mail.replies.";

/**
 * The reply templates a change touches, each by its key: "mail.replies.firstAnswer" for a text of
 * one template, "mail.replies" for the greeting, sign-off and signature every template shares.
 */
function templatesOf(changes: readonly TextChange[]): Map<string, TextChange[]> {
  const touched = new Map<string, TextChange[]>();
  for (const change of changes) {
    if (!change.key.startsWith(REPLY_GROUP)) continue;
    const name = change.key.slice(REPLY_GROUP.length).split(".")[0];
    const key = isReplyTemplate(name) ? `${REPLY_GROUP}${name}` : REPLY_GROUP.slice(0, -1);
    touched.set(key, [...(touched.get(key) ?? []), change]);
  }
  return touched;
}

/**
 * The audit entries of a publish or an undo: the texts' own (text.publish, text.undo), then one
 * template.change per reply template it touched, naming the template's key, so "who changed what we
 * write to leads" is one filter of the audit record.
 */
async function auditPublish(
  req: Request,
  context: Partial<Context>,
  user: CurrentUser,
  action: "text.publish" | "text.undo",
  commit: string,
  changes: readonly TextChange[],
  undoes?: string,
) {
  await auditTexts(req, context, user, action, commit, changes, undoes);
  for (const [template, touched] of templatesOf(changes)) {
    await audit(getDb(), req, context, user, "template.change", {
      target: template,
      detail: {
        commit,
        ...(undoes ? { undoes } : {}),
        languages: [...new Set(touched.map((c) => c.lang))],
        keys: [...new Set(touched.map((c) => c.key))],
      },
    });
  }
}

const short = (commit: string) => commit.slice(0, 7);

/**
 * Reverts what `commit` changed, as a new commit: refused (4xx, in words) when the content editor did
 * not make it, when it was undone already, or when one of its texts changed since.
 */
async function undo(req: Request, context: Partial<Context>, user: CurrentUser, commit: string) {
  const db = getDb();
  const entry = await entryOf(db, commit);
  if (!entry)
    throw new HttpError(
      404,
      `Commit ${short(commit)} was not published with the content editor, so it cannot be undone here.`,
      { code: UNDO_REFUSALS.notEditors },
    );
  const [done] = await undoOf(db, [commit]);
  if (done)
    throw new HttpError(
      409,
      `This change was undone already, by ${done.actor || "someone"} at ${new Date(done.at).toISOString()}.`,
      { code: UNDO_REFUSALS.alreadyUndone },
    );
  const pub = publisher();
  let made;
  try {
    made = await pub.readCommit(commit, ALL_PATHS);
  } catch (error) {
    throw unavailable(error);
  }
  if (!made)
    throw new HttpError(409, `Commit ${short(commit)} is no longer on the site's branch, so it cannot be undone.`, {
      code: UNDO_REFUSALS.notOnBranch,
    });
  const changes = textsChanged(made.before, made.after);
  if (!changes.length)
    throw new HttpError(409, `Commit ${short(commit)} changed no text the editor can restore.`, {
      code: UNDO_REFUSALS.notOnBranch,
    });
  let reverted: TextChange[] = [];
  const result = await commitWithRetry(
    pub,
    (files) => {
      const now = parseTexts(files);
      requireKnownTexts(now, changes);
      const textNow = (c: TextChange) => now.texts[c.lang]?.[c.key] ?? "";
      // Two staff undoing at once: the second finds every text back already.
      if (changes.every((c) => textNow(c) === c.was))
        throw new HttpError(409, "This change was undone already: every text is as it was before it.", {
          code: UNDO_REFUSALS.alreadyUndone,
        });
      const since = changes.filter((c) => textNow(c) !== c.value);
      if (since.length)
        throw new HttpError(
          409,
          `Some of these texts changed after this publish (${since
            .slice(0, 5)
            .map((c) => `${c.key}, ${englishLanguageName(c.lang)}`)
            .join("; ")}). Undoing it would overwrite the newer texts; change them in the editor instead.`,
          {
            code: UNDO_REFUSALS.changedSince,
            conflicts: since.map((c) => ({ lang: c.lang, key: c.key, yours: c.was, theirs: textNow(c) })),
          },
        );
      reverted = changes.map((c) => ({ lang: c.lang, key: c.key, was: c.value, value: c.was }));
      const message = commitMessage(now, reverted, `Undo ${short(commit)}`);
      return { changed: writeChanges(files, now, reverted), message };
    },
    user,
  );
  if (!result.commit)
    throw new HttpError(409, "This change was undone already: every text is as it was before it.", {
      code: UNDO_REFUSALS.alreadyUndone,
    });
  await auditPublish(req, context, user, "text.undo", result.commit, reverted, commit);
  return { result, pub, reverted };
}

export default routes({
  texts: route({
    GET: async (req) => {
      await requireEditor(getDb(), req);
      const pub = publisher();
      const { files } = await read(pub);
      const parsed = parseTexts(files);
      return json<ContentAnswer>({
        success: true,
        languages: [...LANGUAGES],
        revisions: revisions(files),
        pages: pagesOf(parsed),
        collections: parsed.collections,
        texts: parsed.texts,
        reviews: reviewsOf(parsed),
        rules: rulesOf(parsed),
        publish: await pub.status(),
      });
    },
    PUT: async (req, context) => {
      requireSameOrigin(req);
      const user = await requireEditor(getDb(), req);
      const payload = validate(textChangesSchema, await readJson(req));
      const changes = payload.changes.map((c) => ({ ...normalise(c), was: c.was }));
      const pub = publisher();
      let saved: TextChange[] = [];
      const result = await commitWithRetry(
        pub,
        (files) => {
          const before = parseTexts(files);
          requireKnownTexts(before, changes);
          const stale = ALL_PATHS.some(
            (p) => payload.revisions[p] !== undefined && payload.revisions[p] !== revisionOf(files.get(p)!),
          );
          if (stale) {
            const conflicts = conflictsOf(before, changes);
            if (conflicts.length)
              throw new HttpError(
                409,
                "Someone else changed these texts since you opened them. Compare, then save again.",
                {
                  conflicts,
                },
              );
          }
          const effective = changes.filter((c) => before.texts[c.lang]?.[c.key] !== c.value);
          saved = effective.map(({ lang, key, value, was }) => ({
            lang,
            key,
            value,
            was: before.texts[lang]?.[key] ?? was,
          }));
          if (!effective.length) return null;
          return { changed: writeChanges(files, before, effective), message: commitMessage(before, effective) };
        },
        user,
      );
      if (saved.length && result.commit) await auditPublish(req, context, user, "text.publish", result.commit, saved);
      const parsed = parseTexts(result.files);
      return json<SaveAnswer>({
        success: true,
        commit: result.commit,
        at: result.at,
        revisions: revisions(result.files),
        saved: saved.map(({ lang, key, value }) => ({ lang, key, value })),
        reviews: reviewsOf(parsed),
        publish: await pub.status(),
      });
    },
  }),
  reviewed: route({
    POST: async (req) => {
      requireSameOrigin(req);
      const user = await requireEditor(getDb(), req);
      const { texts } = validate(reviewedSchema, await readJson(req));
      const pub = publisher();
      const result = await commitWithRetry(
        pub,
        (files) => {
          const parsed = parseTexts(files);
          requireKnownTexts(parsed, texts);
          const reviewed = reviewedFile(parsed, texts);
          if (!reviewed || reviewed === files.get(CONTENT_PATHS.reviewed)) return null;
          return {
            changed: new Map([[CONTENT_PATHS.reviewed, reviewed]]),
            message: commitMessage(parsed, texts, "Reviewed translations"),
          };
        },
        user,
      );
      const parsed = parseTexts(result.files);
      return json({
        success: true,
        commit: result.commit,
        at: result.at,
        revisions: revisions(result.files),
        reviews: reviewsOf(parsed),
      });
    },
  }),
  history: route({
    GET: async (req) => {
      await requireEditor(getDb(), req);
      return json<HistoryAnswer>({ success: true, entries: await listHistory(getDb(), HISTORY_LENGTH) });
    },
  }),
  undo: route({
    POST: async (req, context) => {
      requireSameOrigin(req);
      const user = await requireEditor(getDb(), req);
      const { commit } = validate(undoSchema, await readJson(req));
      const { result, pub, reverted } = await undo(req, context, user, commit);
      const parsed = parseTexts(result.files);
      return json<SaveAnswer>({
        success: true,
        commit: result.commit,
        at: result.at,
        revisions: revisions(result.files),
        saved: reverted.map(({ lang, key, value }) => ({ lang, key, value })),
        reviews: reviewsOf(parsed),
        publish: await pub.status(),
      });
    },
  }),
  team: route({
    POST: async (req, context) => {
      requireSameOrigin(req);
      const user = await requireEditor(getDb(), req);
      const payload = validate(newTeamMemberSchema, await readJson(req));
      const pub = publisher();
      const { member, change } = addMember(payload);
      const result = await commitWithRetry(pub, change, user);
      if (!result.commit) throw new HttpError(409, "This team member was added already.");
      // Under `npm start` the Consultants page can link the member at once (functions/_lib/booking/team.ts).
      lookAgain();
      await audit(getDb(), req, context, user, "team.add", {
        target: member.id,
        detail: { commit: result.commit, name: member.name.en },
      });
      return json<TeamAddAnswer>(
        {
          success: true,
          id: member.id,
          commit: result.commit,
          at: result.at,
          revisions: revisions(result.files),
          publish: await pub.status(),
        },
        201,
      );
    },
  }),
  status: route({
    GET: async (req) => {
      await requireEditor(getDb(), req);
      return json<{ success: true; publish: PublishStatus }>({ success: true, publish: await publisher().status() });
    },
  }),
});

export const config: Config = {
  path: [
    ROUTES.content.texts,
    ROUTES.content.reviewed,
    ROUTES.content.status,
    ROUTES.content.history,
    ROUTES.content.undo,
    ROUTES.content.team,
  ],
};
