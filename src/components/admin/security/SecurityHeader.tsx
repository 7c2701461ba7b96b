/** The Security page's heading: who is signed in, with which role. */
import { useAdminCopy } from "../copy";
import { useSignedIn } from "../session";
import { PageSpinner } from "../ui";

export default function SecurityHeader() {
  const texts = useAdminCopy();
  const user = useSignedIn();
  if (!texts || !user) return <PageSpinner label={texts?.copy.common.checkingSession} />;
  const { copy, f } = texts;
  return (
    <div className="min-w-0">
      <p className="text-sm text-muted">
        {f(copy.common.signedInAsRole, { name: user.username, role: copy.common.roles[user.role] })}
      </p>
      <h1 className="mt-1 text-3xl font-bold tracking-tight text-brand-950 sm:text-4xl">{copy.security.title}</h1>
      <p className="mt-2 max-w-2xl text-muted">{copy.security.intro}</p>
    </div>
  );
}
