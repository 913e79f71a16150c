/** A version of the work and the UHP response (or other source) it came from. */
export interface WorkVersion {
  work: string;
  /** The response that produced this version; the next revision continues from it. */
  responseId: string;
}

/**
 * Something that can hand back a revised version of the work given feedback: the UHP session the
 * work came from (the CLI's `createUhpWorkReviser`), or any other agent.
 */
export interface WorkReviser {
  /** The work as it stands before any revision. */
  current(signal?: AbortSignal): Promise<WorkVersion>;
  /** Sends the feedback as the next turn and resolves to the revised work. */
  revise(feedback: string, signal?: AbortSignal): Promise<WorkVersion>;
}
