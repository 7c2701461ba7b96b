/**
 * The content editor's state and requests: the texts, the drafts (kept in the browser as they are
 * typed, offered back on return), search, publish, conflicts and review flags.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import type { ContentAnswer, PublishStatus, SaveAnswer, TextChange } from "#shared/api/content.ts";
import type { TextAddress } from "#shared/api/common.ts";
import { ApiError, fetchTexts, markTextsReviewed, saveTexts } from "../api";
import { useCopy } from "../copy";
import { problem } from "../ui";
import { dropDrafts, keepDraft, keptDrafts, type KeepResult, type KeptDraft } from "./drafts";
import { useFound, useLeaveWarning, usePublishProgress } from "./editor-effects";
import { fieldId, inputId, liveProblems, normaliseInput, overview, type Drafts } from "./model";

export type Conflict = TextAddress & { yours: string; theirs: string };

const textOf = (data: ContentAnswer, id: string) => {
  const { lang, key } = splitId(id);
  return data.texts[lang]?.[key] ?? "";
};

const withoutKey = <T>(record: Readonly<Record<string, T>>, id: string) => {
  const rest = { ...record };
  delete rest[id];
  return rest;
};

/** Drafts kept in this browser from an earlier visit, until the editor restores or discards them. */
export interface DraftOffer {
  drafts: KeptDraft[];
  /** Of those, the ids whose published text changed since the draft was written. */
  changedSince: string[];
  /** Entries that cannot be offered back (damaged, or longer than a text can be). */
  unreadable: string[];
}

const splitId = (id: string) => {
  const at = id.indexOf(":");
  return { lang: id.slice(0, at), key: id.slice(at + 1) };
};

/** `user`: whose drafts this browser keeps (one person's are never offered to another). */
export function useContentEditor(user: string) {
  const { copy } = useCopy();
  const tx = copy.editor;
  const [data, setData] = useState<ContentAnswer | null>(null);
  const [loadError, setLoadError] = useState(false);
  const [drafts, setDrafts] = useState<Drafts>({});
  const [query, setQuery] = useState("");
  const [onlyReview, setOnlyReview] = useState(false);
  const [busy, setBusy] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string[]>>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const [conflicts, setConflicts] = useState<Conflict[]>([]);
  const [status, setStatus] = useState<PublishStatus | null>(null);
  const [savedAt, setSavedAt] = useState<string | null>(null);
  const [offer, setOffer] = useState<DraftOffer | null>(null);
  /** Why the latest keystroke could not be kept in the browser, and of which text. */
  const [keepProblem, setKeepProblem] = useState<{ id: string; result: Exclude<KeepResult, "kept"> } | null>(null);
  /** Set when the editor chose to leave (signing out): the page's own warning stays quiet. */
  const leaving = useRef(false);

  const load = (first = false) =>
    fetchTexts()
      .then((answer) => {
        setData(answer);
        setStatus(answer.publish);
        if (first) {
          const known = (id: string) => {
            const { lang, key } = splitId(id);
            return Object.hasOwn(answer.texts, lang) && Object.hasOwn(answer.texts.en, key);
          };
          const kept = keptDrafts(user, known);
          const changedSince = kept.drafts.filter((d) => d.base !== textOf(answer, d.id)).map((d) => d.id);
          if (kept.drafts.length || kept.unreadable.length) setOffer({ ...kept, changedSince });
        }
      })
      .catch(() => setLoadError(true));
  useEffect(() => {
    void load(true);
  }, []);

  usePublishProgress(status, setStatus);

  const changes = useMemo<TextChange[]>(() => {
    if (!data) return [];
    return Object.entries(drafts).flatMap(([id, value]) => {
      const at = id.indexOf(":");
      const lang = id.slice(0, at);
      const key = id.slice(at + 1);
      const was = data.texts[lang]?.[key] ?? "";
      return value === was ? [] : [{ lang, key, value, was }];
    });
  }, [data, drafts]);
  const counts = useMemo(() => (data ? overview(data, drafts) : null), [data, drafts]);

  useLeaveWarning(changes.length > 0, leaving);

  const edit = (a: TextAddress, value: string) => {
    const id = fieldId(a);
    const next = normaliseInput(a.lang, value);
    setDrafts((d) => ({ ...d, [id]: next }));
    setServerErrors((e) => (e[id] ? withoutKey(e, id) : e));
    if (!data) return;
    const result = keepDraft(user, id, next, data.texts[a.lang]?.[a.key] ?? "", new Date());
    setKeepProblem((was) => (result !== "kept" ? { id, result } : was?.id === id ? null : was));
  };
  /** Puts the offered drafts into the fields (a text changed meanwhile shows the draft; the offer named it). */
  const restore = () => {
    if (!offer) return;
    setDrafts((d) => ({ ...Object.fromEntries(offer.drafts.map((k) => [k.id, k.value])), ...d }));
    setOffer(offer.unreadable.length ? { drafts: [], changedSince: [], unreadable: offer.unreadable } : null);
  };
  /** Forgets the offered drafts (or the unreadable entries only, once the others are restored). */
  const dropOffer = () => {
    if (!offer) return;
    dropDrafts(user, [...offer.drafts.map((d) => d.id), ...offer.unreadable]);
    setOffer(null);
  };
  const goTo = (a: TextAddress) => {
    setQuery(a.key);
    setOnlyReview(false);
    requestAnimationFrame(() => requestAnimationFrame(() => document.getElementById(inputId(a))?.focus()));
  };

  /** Publishes the changes; resolves when the refusal (or conflict) line should take the focus. */
  const publish = async (): Promise<boolean> => {
    if (!data) return false;
    const blocking = changes.filter((c) => liveProblems(data, drafts, c).length);
    setRefusal(null);
    setConflicts([]);
    if (blocking.length) {
      setRefusal(tx.fixFirst);
      setServerErrors(Object.fromEntries(blocking.map((c) => [fieldId(c), []])));
      return true;
    }
    setBusy(true);
    try {
      const answer = await saveTexts(data.revisions, changes);
      const texts = structuredClone(data.texts);
      for (const s of answer.saved) texts[s.lang][s.key] = s.value;
      setData({ ...data, texts, revisions: answer.revisions, reviews: answer.reviews });
      setDrafts({});
      dropDrafts(
        user,
        changes.map((c) => fieldId(c)),
      );
      setKeepProblem(null);
      setServerErrors({});
      setSavedAt(answer.at);
      setStatus(answer.publish);
      return false;
    } catch (error) {
      const body =
        error instanceof ApiError
          ? (error.data as { message?: string; errors?: Record<string, string[]>; conflicts?: Conflict[] })
          : null;
      if (error instanceof ApiError && error.status === 409 && body?.conflicts) setConflicts(body.conflicts);
      else {
        setServerErrors(body?.errors ?? {});
        setRefusal(`${tx.refused} ${problem(error, "")}`.trim());
      }
      return true;
    } finally {
      setBusy(false);
    }
  };

  /** Keep mine: the other text becomes what mine replaces (published with the next Publish). Take theirs: drop mine. */
  const resolve = (conflict: Conflict, keep: boolean) => {
    if (!data) return;
    const texts = structuredClone(data.texts);
    texts[conflict.lang][conflict.key] = conflict.theirs;
    setData({ ...data, texts });
    if (!keep) {
      setDrafts((d) => withoutKey(d, fieldId(conflict)));
      dropDrafts(user, [fieldId(conflict)]);
    }
    setConflicts((list) => list.filter((c) => fieldId(c) !== fieldId(conflict)));
  };

  const markReviewed = async (a: TextAddress) => {
    const answer = await markTextsReviewed([a]);
    setData((d) => d && { ...d, revisions: answer.revisions, reviews: answer.reviews });
  };

  const { searching, found } = useFound(data, drafts, query, onlyReview);

  return {
    data,
    loadError,
    retry: () => {
      setLoadError(false);
      void load();
    },
    /** After an undo: the texts as they are now (drafts of the undone texts stay drafts), and the publishing state. */
    undone: (answer: SaveAnswer) => {
      setStatus(answer.publish);
      setSavedAt(answer.at);
      void load();
    },
    /** After a team member was added: the texts as they are now, and the publishing state. */
    reloaded: (publish: PublishStatus, at: string | null) => {
      setStatus(publish);
      setSavedAt(at);
      void load();
    },
    drafts,
    discard: () => {
      dropDrafts(user, Object.keys(drafts));
      setDrafts({});
      setKeepProblem(null);
    },
    offer,
    restore,
    dropOffer,
    keepProblem,
    /** Called when the editor confirmed leaving: the browser's own warning is not shown again. */
    leave: () => {
      leaving.current = true;
    },
    changes,
    counts,
    edit,
    goTo,
    query,
    setQuery,
    onlyReview,
    setOnlyReview,
    searching,
    found,
    busy,
    serverErrors,
    refusal,
    conflicts,
    status,
    savedAt,
    publish,
    resolve,
    markReviewed,
  };
}

export type ContentEditorState = ReturnType<typeof useContentEditor>;
