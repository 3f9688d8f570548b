// Errors the Git layer raises to its callers. Each carries a stable `code` the HTTP layer maps to a status.

/** The label is well-formed but names no branch, tag or commit in the mirror (HTTP 404). */
export class LabelNotFoundError extends Error {
  readonly code = 'CONFBUS_NO_SUCH_LABEL';
  constructor(readonly label: string) {
    super(`No such label: ${label} (not a branch, tag or commit of the configuration repository)`);
    this.name = 'LabelNotFoundError';
  }
}

/** The label is not a legal ref name or commit id; it never reached git (HTTP 400). */
export class InvalidLabelError extends Error {
  readonly code = 'CONFBUS_INVALID_LABEL';
  constructor(reason: string) {
    super(`Invalid label: ${reason}`);
    this.name = 'InvalidLabelError';
  }
}

/** There is no local copy of the repository and the upstream could not be reached (HTTP 503). */
export class RepositoryUnavailableError extends Error {
  readonly code = 'CONFBUS_REPOSITORY_UNAVAILABLE';
  constructor(uri: string, cause?: unknown) {
    const detail = cause instanceof Error ? `: ${cause.message}` : '';
    super(`Configuration repository ${uri} is unavailable and there is no local copy${detail}`, { cause });
    this.name = 'RepositoryUnavailableError';
  }
}

/** A git command failed or timed out. Messages are built from redacted text only. */
export class GitCommandError extends Error {
  readonly code = 'CONFBUS_GIT_FAILED';
  constructor(
    message: string,
    readonly exitCode: number | null,
    readonly timedOut: boolean,
  ) {
    super(message);
    this.name = 'GitCommandError';
  }
}
