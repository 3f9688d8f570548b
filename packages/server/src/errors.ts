/**
 * The error codes raised by @confbus/server. Messages name settings and inputs, never secret values. The codes any
 * endpoint may answer (requests, auth, the catch-all 500) are declared in http-errors.ts and spread in place.
 */
import { defineErrors } from '@confbus/core';
import { httpErrorEntries } from './http-errors.js';

export const serverErrors = defineErrors({
  CONFBUS_ROLLOUT_BAD_REQUEST: {
    status: 400,
    description:
      'A rollout request (POST /-/rollouts, an action, a health report) is malformed; the message names the field and what is accepted',
  },
  CONFBUS_ROLLOUT_NOT_FOUND: {
    status: 404,
    description: 'No rollout with that id (GET /-/rollouts lists them)',
  },
  CONFBUS_ROLLOUT_CONFLICT: {
    status: 409,
    description:
      "The rollout's status does not allow the action (e.g. resume of a running rollout), or an application is already in a running rollout",
  },
  CONFBUS_ROLLOUT_UNAVAILABLE: {
    status: 503,
    description:
      'Rollouts are disabled (confbus.server.rollouts.enabled=false), or the change could not be kept in the rollout store (the Git repository); nothing was changed',
  },
  CONFBUS_INVALID_REPOSITORY_NAME: {
    status: 400,
    description:
      'A request value would fill {application}/{profile}/{label} in a repository uri but could leave its path (only letters A-Z, digits, ".", "_", "-" and "/" between names); the message names the value and why',
  },
  CONFBUS_TOO_MANY_REPOSITORIES: {
    status: 503,
    description:
      'Every mirror a uri template may keep (confbus.server.git.max-placeholder-repositories) is serving a request; retry',
  },
  CONFBUS_SERVER_BUSY: {
    status: 503,
    description:
      'Too many environments not in the cache are being built (confbus.server.max-concurrent-builds) and waiting (confbus.server.max-queued-builds); retry',
  },
  CONFBUS_RESOURCE_NOT_FOUND: {
    status: 404,
    description:
      'No file of that name (nor a profile-specific variant) in the searched directories (plain-text endpoint)',
  },
  CONFBUS_INVALID_RESOURCE_PATH: {
    status: 400,
    description:
      'A plain-text resource path with an empty, `.`, `..` or `.git` segment, an encoded slash or backslash, or over 1024 characters',
  },
  CONFBUS_REPOSITORY_NOT_FOUND: {
    status: 404,
    description:
      'The repository a uri template names for this request cannot be cloned (Spring: NoSuchRepositoryException)',
  },
  CONFBUS_NO_SUCH_ENDPOINT: {
    status: 404,
    description:
      'No actuator endpoint at this /actuator path (GET /actuator lists them); never read as an application named actuator',
  },
  CONFBUS_NO_SUCH_HEALTH_COMPONENT: {
    status: 404,
    description:
      'GET /actuator/health/{component}: no such component or group (git, bus, liveness, readiness…)',
  },
  CONFBUS_EMPTY_BODY: {
    status: 400,
    description: 'POST /encrypt or /decrypt without a body (Spring: "Required request body is missing")',
  },
  CONFBUS_BAD_QUERY_PARAMETER: {
    status: 400,
    description:
      'A query parameter is not a number in the accepted range; the message names it and the range.',
  },
  CONFBUS_CONSOLE_BAD_REQUEST: {
    status: 400,
    description: 'A console API parameter is missing or invalid; the message names it and what is accepted',
  },
  CONFBUS_CONSOLE_NOT_FOUND: {
    status: 404,
    description: 'The console API has no such application, commit or refresh event',
  },
  CONFBUS_CONSOLE_CSRF: {
    status: 403,
    description:
      'A console action came without the CSRF token from GET /-/console/api/session, or from another site',
  },
  CONFBUS_CONSOLE_STREAMS_EXHAUSTED: {
    status: 503,
    description:
      'Too many open console event streams (confbus.console.max-event-streams); close one and retry',
  },
  CONFBUS_CONSOLE_HOST: {
    status: 403,
    description:
      "A console action came with a Host header that names none of the server's names (a guard against DNS rebinding); add the name to confbus.console.allowed-hosts",
  },
  CONFBUS_CONSOLE_CLIENT_STREAMS: {
    status: 429,
    description:
      'This client (its address, with basic auth its user too) holds confbus.console.max-event-streams-per-client event streams already; close a console tab',
  },
  CONFBUS_CONSOLE_BUS_DISABLED: {
    status: 503,
    description:
      'A console bus action needs the bus (spring.cloud.bus.enabled=true) and it is off or not started',
  },
  CONFBUS_CONSOLE_UNAVAILABLE: {
    status: 404,
    description:
      'The console is on but cannot work with this default repository (the native backend, or a git uri with {application}, {profile} or {label}); the message says which',
  },
  CONFBUS_CONSOLE_PUBLISH_FAILED: {
    status: 503,
    description: 'The console could not publish the refresh event to the bus; the broker is unreachable',
  },
  CONFBUS_GIT_BASEDIR: {
    status: 500,
    description:
      'spring.cloud.config.server.git.basedir holds something other than a mirror of the configured uri; the start stops, naming it',
  },
  CONFBUS_GIT_SSH_SETTINGS: {
    status: 500,
    description:
      'The SSH settings of the Git repository (private-key, host-key, known-hosts-file, …) are incomplete or invalid; the start stops, naming the setting',
  },
  CONFBUS_GIT_HISTORY: {
    status: 500,
    description:
      "Reading the history of the configuration repository failed; the server log has git's message",
  },
  ...httpErrorEntries,
  CONFBUS_INVALID_APPLICATION: {
    status: 400,
    description: 'The application name is empty or not acceptable; the message says what is wrong',
  },
  CONFBUS_INVALID_PROFILE: {
    status: 400,
    description: 'A profile name is not acceptable; the message says what is wrong',
  },
  CONFBUS_TOO_MANY_PROFILES: {
    status: 400,
    description: 'More profiles are requested than confbus.server.max-profiles allows',
  },
  CONFBUS_INVALID_LABEL: {
    status: 400,
    description:
      "The label is not a legal git ref name or commit id (git's check-ref-format rules, at most 255 characters); it never reaches git",
  },
  CONFBUS_NO_SUCH_LABEL: {
    status: 404,
    description: 'The label names no branch, tag or commit of the configuration repository',
  },
  CONFBUS_APPLICATION_NOT_FOUND: {
    status: 404,
    description:
      'No configuration file matches the application (with spring.cloud.config.server.accept-empty=false)',
  },
  CONFBUS_REPOSITORY_UNAVAILABLE: {
    status: 503,
    description:
      'The configuration repository cannot be reached and there is no local copy yet; retried on the next request',
  },
  CONFBUS_GIT_FAILED: {
    status: 500,
    internal: true,
    description:
      "A git command failed or timed out; answered as CONFBUS_INTERNAL, the server log has git's (redacted) message",
  },
  CONFBUS_INVALID_REQUEST: {
    status: 400,
    description:
      'POST /encrypt or /decrypt names an invalid application or profiles (Spring: "Invalid request")',
  },
  CONFBUS_BAD_WEBHOOK: {
    status: 400,
    description:
      'POST /monitor: the body is missing, not JSON, or not a push event of a known Git host; the message says what is missing',
  },
  CONFBUS_BAD_WEBHOOK_SIGNATURE: {
    status: 401,
    description:
      'POST /monitor: the signature or token does not match the configured secret, or a signature is required (confbus.monitor.*) and missing',
  },
  CONFBUS_UPSTREAM_UNAVAILABLE: {
    status: 503,
    description:
      'POST /monitor: git could not fetch, so no refresh was published (clients would re-read the old state); redeliver later',
  },
  CONFBUS_BUS_DISABLED: {
    status: 503,
    description:
      'POST /monitor: git was re-read but the bus is off (spring.cloud.bus.enabled=false), so no refresh was published',
  },
  CONFBUS_CONTRACT_HELD: {
    status: 422,
    description:
      'POST /monitor: the pushed commit breaks a contract of some applications; they are held back at their last valid commit and no refresh was published for them (the body lists `held` with each violation; the others are in `refreshed`)',
  },
  CONFBUS_GATE_BAD_REQUEST: {
    status: 400,
    description:
      'POST /contracts/published or a release of a hold: the JSON body is missing a field or has one of the wrong type (the message names it), or a published schema is over 256 KiB',
  },
  CONFBUS_HOLD_NOT_FOUND: {
    status: 404,
    description:
      'POST /actuator/contract-gate/release: the application is not held back at that commit (the hold was released, or a newer commit was pushed)',
  },
  CONFBUS_BUS_PUBLISH_FAILED: {
    status: 503,
    description:
      'POST /monitor: git was re-read but a refresh event could not be published; redeliver the webhook to retry',
  },
  CONFBUS_CONSOLE_NOT_BUILT: {
    status: 503,
    description: 'The console page is not built (run `npm run build`); its JSON API still answers',
  },
  CONFBUS_BAD_VERSION_HINT: {
    status: 400,
    description:
      "The X-Config-Min-Version request header (confbus's version hint) is not a full commit id (40 or 64 hex digits)",
  },
  CONFBUS_WATCH_CONNECTIONS_EXHAUSTED: {
    status: 503,
    description:
      'Too many open watch connections (confbus.watch.max-connections); the client retries after Retry-After',
  },
  CONFBUS_WATCH_CLIENT_CONNECTIONS: {
    status: 429,
    description:
      'This client (its address, with basic auth its user too) holds confbus.watch.max-connections-per-client watch connections already',
  },
  CONFBUS_WATCH_TOO_MANY_OPENS: {
    status: 503,
    description:
      'More watch connections opened this second than confbus.watch.max-opens-per-second; retry after the randomised Retry-After',
  },
  CONFBUS_WATCH_BAD_REQUEST: {
    status: 400,
    description:
      'A watch request or ack is malformed (a wait that is not a duration within confbus.watch.max-wait, a version or ack field out of shape); the message names it',
  },
});
