/** What publishing can fail with; a module of its own, so the publishers and their chooser import no one else. */

/** Someone else committed to the same files since they were read. */
export class StaleSnapshotError extends Error {
  constructor() {
    super("The files changed on the branch since they were read");
  }
}

/** A problem reaching the repository (GitHub down, a wrong token): the save is not made. */
export class PublishError extends Error {}
