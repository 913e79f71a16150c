/**
 * The `@arbiter/tool-gate/team-reporting` entry: a hook's on-disk report queue, its locks and the
 * cached team policy. Without the pack or @arbiter/decision, so `arbiter gate report flush`, a
 * process of its own after every reporting hook, loads only what it sends.
 */
export { acquireFileLock, type FileLockOptions, type ReleaseFileLock } from './team/exclusive-file-lock.js';
export {
  readCachedTeamPolicy,
  teamPolicyCachePath,
  teamPolicyProblem,
  writeCachedTeamPolicy,
} from './team/team-policy-cache.js';
export {
  TEAM_QUEUE_LIMITS,
  type TeamQueueState,
  type TeamQueueStatus,
  TeamReportQueue,
  type TeamReportQueueOptions,
} from './team/team-report-queue.js';
