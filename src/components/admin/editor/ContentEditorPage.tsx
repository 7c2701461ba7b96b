/** /admin/texts: the content editor for whoever is signed in (an editor or an admin); the login page otherwise. */
import { useEffect, useState } from "react";
import type { CurrentUser } from "#shared/api/people.ts";
import { fetchCurrentUser, goToLogin } from "../api";
import { PageSpinner } from "../ui";
import ContentEditor from "./ContentEditor";

export default function ContentEditorPage() {
  const [user, setUser] = useState<CurrentUser | null>(null);
  useEffect(() => {
    fetchCurrentUser()
      .then((found) => (found ? setUser(found) : goToLogin()))
      .catch(() => goToLogin());
  }, []);
  return user ? <ContentEditor user={user} /> : <PageSpinner label="Checking your session…" />;
}
