// Every request body the client sends, from @keel/protocol: the schemas the service validates them with (some
// under the client's own names).
export type {
  CommitMessageEdit,
  ConnectionTestInput,
  ConversationCreate,
  ConversationUpdate,
  FollowUpInput as FollowUp,
  LogQuery,
  MessageInput as StageMessage,
  ProjectCreate,
  ProjectInit,
  ProjectUpdate,
  RepositoryInput,
  SettingsUpdate,
  SkillCreate,
  SkillUpdate,
  SubmitInput as SubmitMergeRequest,
  TaskCreate,
  TaskImageInput,
  TaskUpdate,
  TodoInput as TodoCreate,
  TodoPatch as TodoUpdate,
} from '@keel/protocol/workbench';
