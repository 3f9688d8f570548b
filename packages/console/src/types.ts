/**
 * The JSON shapes of the console API (docs/console.md), under the names the views use. They are declared once,
 * in @confbus/core (src/console/console-api.ts), which the server's routes are typed with too; imported as types
 * only, so nothing of core reaches the bundle.
 */
export type {
  ConsoleAck as Ack,
  ConsoleAuditEntry as AuditEntry,
  ConsoleAuditLog as AuditLog,
  ConsoleApplication as Application,
  ConsoleApplicationCommits as ApplicationCommits,
  ConsoleApplications as Applications,
  ConsoleCommitSummary as CommitSummary,
  ConsoleDiff as Diff,
  ConsoleEnvironment as EnvironmentView,
  ConsoleEventType,
  ConsoleFleet as Fleet,
  ConsoleInstance as Instance,
  ConsoleLabel as Label,
  ConsoleOverview as Overview,
  ConsolePaged as Paged,
  ConsoleProperty as Property,
  ConsolePropertyOrigin as Origin,
  ConsolePush as Push,
  ConsoleRefreshEvent as RefreshEvent,
  ConsoleRefreshPublished as RefreshPublished,
  ConsoleRefreshRequest as RefreshRequest,
  ConsoleRepositoryState as RepositoryState,
  ConsoleSession as Session,
  ConsoleSyncState as SyncState,
  ConsoleTimelinePoint as TimelinePoint,
  ConsoleValue as Value,
} from '@confbus/core';
