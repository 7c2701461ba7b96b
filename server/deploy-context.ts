/**
 * The deploy context Netlify passes each function call (`context.deploy.context`): the only sign of
 * production inside a deployed function, where the build's CONTEXT variable does not exist. Kept
 * apart from server.ts so the HTTP edge of every function records it without loading the rest.
 */
let deployContext: string | undefined;

/** Records the context of a call. A function instance belongs to one deploy, so the first call's holds. */
export function noteDeployContext(context: { deploy?: { context?: string } } | undefined): void {
  deployContext ??= context?.deploy?.context;
}

/** The recorded deploy context: "production", "deploy-preview", "branch-deploy", "dev", or undefined. */
export function currentDeployContext(): string | undefined {
  return deployContext;
}
