// Errors the Git layer raises to its callers; their codes (and HTTP statuses) are declared in ../errors.ts.
import { ConfbusError } from '@confbus/core';
import { serverErrors } from '../errors.js';

/** The label is well-formed but names no branch, tag or commit in the mirror (HTTP 404). */
export class LabelNotFoundError extends ConfbusError<'CONFBUS_NO_SUCH_LABEL'> {
  override readonly name = 'LabelNotFoundError';
  constructor(readonly label: string) {
    super(
      serverErrors.CONFBUS_NO_SUCH_LABEL,
      `No such label: ${label} (not a branch, tag or commit of the configuration repository)`,
    );
  }
}

/** The label is not a legal ref name or commit id; it never reached git (HTTP 400). */
export class InvalidLabelError extends ConfbusError<'CONFBUS_INVALID_LABEL'> {
  override readonly name = 'InvalidLabelError';
  /** `reason` names the label and what is wrong with it (`label must not contain ".."`). */
  constructor(reason: string) {
    super(serverErrors.CONFBUS_INVALID_LABEL, reason);
  }
}

/** There is no local copy of the repository and the upstream could not be reached (HTTP 503). */
export class RepositoryUnavailableError extends ConfbusError<'CONFBUS_REPOSITORY_UNAVAILABLE'> {
  override readonly name = 'RepositoryUnavailableError';
  constructor(uri: string, cause?: unknown) {
    const detail = cause instanceof Error ? `: ${cause.message}` : '';
    super(
      serverErrors.CONFBUS_REPOSITORY_UNAVAILABLE,
      `Configuration repository ${uri} is unavailable and there is no local copy${detail}`,
      { cause },
    );
  }
}

/** A git command failed or timed out. Messages are built from redacted text only; HTTP answers hide them. */
export class GitCommandError extends ConfbusError<'CONFBUS_GIT_FAILED'> {
  override readonly name = 'GitCommandError';
  constructor(
    message: string,
    readonly exitCode: number | null,
    readonly timedOut: boolean,
  ) {
    super(serverErrors.CONFBUS_GIT_FAILED, message);
  }
}
