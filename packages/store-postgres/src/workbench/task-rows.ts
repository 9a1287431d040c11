// What the tasks' queries select. The row mapping itself is the workbench's (rows.ts there), shared with
// SQLite: the driver answers the json columns as values, which is what it takes.

/** Every column of tasks but `images`: what a list reads (megabytes of images per task stay in the table). */
export const listedTaskColumns = [
  'id',
  'project_id',
  'description',
  'prd_links',
  'image_info',
  'runner',
  'branch',
  'state',
  'cancelled_from',
  'init',
  'workspaces',
  'commit_message',
  'mr_title',
  'mr_description',
  'results',
  'prd_link_errors',
  'review',
  'merge_requests',
  'baseline',
  'error',
  'created_at',
  'updated_at',
].join(', ');
