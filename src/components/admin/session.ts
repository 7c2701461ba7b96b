/** The signed-in person for an admin page: fetched once; without a session, off to the login page. */
import { useEffect, useState } from "react";
import type { PanelUser } from "#shared/api/panel-language.ts";
import { fetchCurrentUser, goToLogin } from "./api";

// One request per page: a page of several islands (the Security page) and the layout's navigation
// ask once for all of them.
let asked: Promise<PanelUser | null> | null = null;

/** The signed-in person (null without a session), asked of the server once per page. */
export function currentUser(): Promise<PanelUser | null> {
  asked ??= fetchCurrentUser();
  return asked;
}

/** The signed-in person, once known (null until then); the login page without a session. */
export function useSignedIn(): PanelUser | null {
  const [user, setUser] = useState<PanelUser | null>(null);
  useEffect(() => {
    let active = true;
    currentUser()
      .then((found) => (found ? active && setUser(found) : goToLogin()))
      .catch(() => active && void goToLogin());
    return () => {
      active = false;
    };
  }, []);
  return user;
}
