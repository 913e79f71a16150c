export {
  type AtomicWriteOptions,
  replaceFileAtomic,
  replaceFileAtomicSync,
  writeFileAtomic,
  writeFileAtomicSync,
} from './atomic-file.js';
