/** /admin/texts: the content editor for whoever is signed in (an editor or an admin); the login page otherwise. */
import { useAdminCopy } from "../copy";
import { useSignedIn } from "../session";
import { PageSpinner } from "../ui";
import ContentEditor from "./ContentEditor";

export default function ContentEditorPage() {
  const texts = useAdminCopy();
  const user = useSignedIn();
  return texts && user ? <ContentEditor user={user} /> : <PageSpinner label={texts?.copy.common.checkingSession} />;
}
