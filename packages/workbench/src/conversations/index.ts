export { type Conversation, type ConversationDeps, ConversationService } from './conversation-service.ts';
export { conversationRoutes } from './routes.ts';
