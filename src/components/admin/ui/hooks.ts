/** The admin panels' state and requests: one way to load a resource and one way to run an action. */
import { useCallback, useEffect, useState } from "react";
import { ApiError } from "#src/lib/api-client.ts";

/** The message of a refused request, else `fallback` (in the panel's language). */
export const problem = (error: unknown, fallback: string) =>
  error instanceof ApiError && error.message ? error.message : fallback;

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
