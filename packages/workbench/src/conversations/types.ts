// A conversation's record is the store's (store/records/conversation.ts): the store imports no area.
export type { Conversation } from '../store/index.ts';
