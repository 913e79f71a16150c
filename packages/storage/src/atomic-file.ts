/**
 * Storage's names for the one atomic file write (`@arbiter/atomic-file`), kept so that the stores
 * (`writeFileAtomically`) and the CLI (the narrow entry `@arbiter/storage/atomic-file`, which loads
 * no database driver) read as before: a writer fills a temporary file beside the target, which is
 * then renamed over it.
 */
export {
  replaceFileAtomic as writeFileAtomicallyAsync,
  replaceFileAtomicSync as writeFileAtomically,
} from '@arbiter/atomic-file';
