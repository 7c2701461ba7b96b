/** The admin panels' state and requests: one way to load a resource and one way to run an action. */
import { useCallback, useEffect, useState } from "react";
import { ApiError, NetworkError } from "#src/lib/api-client.ts";
import { apiErrorText } from "../api-errors";
import { adminCopy } from "../copy";

/**
 * What to tell the person about a failed request, in the panel's language: the panel's sentence for
 * a refusal (by status and code, api-errors.ts; never the server's English), else `fallback`, the
 * caller's own sentence for a failure it knows (a server error, anything thrown in the browser).
 */
export function problem(error: unknown, fallback: string): string {
  const refused = error instanceof ApiError && error.status < 500;
  if (!refused && !(error instanceof NetworkError) && !(error instanceof ApiError && error.status === 503))
    return fallback;
  return apiErrorText(error, adminCopy().copy.apiErrors);
}

/**
 * Loads a resource when the panel mounts: `data` (undefined while loading), `failed`, `reload()` and
 * `set()` for a change the panel already knows the outcome of. A 401 has already left for the login page.
 */
export function useResource<T>(load: () => Promise<T>) {
  const [data, setData] = useState<T | undefined>(undefined);
  const [failed, setFailed] = useState(false);
  const reload = useCallback(
    () =>
      load().then(
        (value) => {
          setData(value);
          setFailed(false);
        },
        () => setFailed(true),
      ),
    // The loader is fixed for the panel's life (a module function or a stable closure).
    [],
  );
  useEffect(() => {
    let active = true;
    load().then(
      (value) => active && setData(value),
      () => active && setFailed(true),
    );
    return () => {
      active = false;
    };
  }, []);
  return { data, failed, reload, set: setData };
}

/**
 * An action with a busy state and an error line: `run(fn)` clears the error, marks the action busy,
 * and resolves true when `fn` did; a throw becomes `error` (its message, else `fallback`).
 */
export function useAction<K extends string = "busy">() {
  const [busy, setBusy] = useState<K | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async (fn: () => Promise<unknown>, fallback: string, which = "busy" as K): Promise<boolean> => {
    setError(null);
    setBusy(which);
    try {
      await fn();
      return true;
    } catch (e) {
      setError(problem(e, fallback));
      return false;
    } finally {
      setBusy(null);
    }
  };
  return { busy, error, setError, run };
}
