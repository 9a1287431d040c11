// Reads and writes in folders the workbench does not control (repositories, task directories), never
// through a symbolic link.

export {
  type EntryKind,
  entryKind,
  type NoFollowRead,
  readNoFollow,
  readNoFollowSync,
  type Unread,
  writeNoFollow,
} from './no-follow.ts';
export { isDirectory, isFile, readSmallFile } from './small-files.ts';
