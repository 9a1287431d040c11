export {
  DirectoryListingError,
  type ListedEntry,
  type Listing,
  type ListingFailure,
  type ListOptions,
  listDirectory,
  maxEntries,
} from './list-directory.ts';
