/** The content editor's state and requests: the texts, the drafts, search, publish, conflicts and review flags. */
import { useEffect, useMemo, useState } from "react";
import type { ContentAnswer, PublishStatus, TextChange } from "#shared/api/content.ts";
import type { TextAddress } from "#shared/api/common.ts";
import { ApiError, fetchPublishStatus, fetchTexts, markTextsReviewed, saveTexts } from "../api";
import { useCopy } from "../copy";
import { problem } from "../ui";
import { fieldId, inputId, liveProblems, normaliseInput, overview, search, type Drafts } from "./model";

export type Conflict = TextAddress & { yours: string; theirs: string };

const withoutKey = <T>(record: Readonly<Record<string, T>>, id: string) => {
  const rest = { ...record };
  delete rest[id];
  return rest;
};

export function useContentEditor() {
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

  const load = () =>
    fetchTexts()
      .then((answer) => {
        setData(answer);
        setStatus(answer.publish);
      })
      .catch(() => setLoadError(true));
  useEffect(() => {
    void load();
  }, []);

  // While `npm start` rebuilds the site, ask how it went until it is done.
  useEffect(() => {
    if (status?.state !== "building") return;
    const timer = setInterval(() => {
      fetchPublishStatus()
        .then((answer) => setStatus(answer.publish))
        .catch(() => {});
    }, 1500);
    return () => clearInterval(timer);
  }, [status?.state]);

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

  const edit = (a: TextAddress, value: string) => {
    const id = fieldId(a);
    setDrafts((d) => ({ ...d, [id]: normaliseInput(a.lang, value) }));
    setServerErrors((e) => (e[id] ? withoutKey(e, id) : e));
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
    if (!keep) setDrafts((d) => withoutKey(d, fieldId(conflict)));
    setConflicts((list) => list.filter((c) => fieldId(c) !== fieldId(conflict)));
  };

  const markReviewed = async (a: TextAddress) => {
    const answer = await markTextsReviewed([a]);
    setData((d) => d && { ...d, revisions: answer.revisions, reviews: answer.reviews });
  };

  const searching = query.trim() !== "" || onlyReview;
  const found = useMemo(() => {
    if (!data || !searching) return [];
    const reviewKeys = new Set(data.reviews.map((r) => r.key));
    const keys = query.trim() ? search(data, drafts, query) : [...reviewKeys];
    return keys.filter((key) => !onlyReview || reviewKeys.has(key));
  }, [data, drafts, query, onlyReview, searching]);

  return {
    data,
    loadError,
    retry: () => {
      setLoadError(false);
      void load();
    },
    drafts,
    discard: () => setDrafts({}),
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
