export type { ModelSettings, ModelTool, RetryNotice, TurnHandlers, TurnResult, TurnUsage } from './client.ts';
export { defaultModelBaseUrl, ModelClient } from './client.ts';
export type { ChatMessage, ImagePayload, ToolCall } from './messages.ts';
export { toWireMessages } from './messages.ts';
export { lookupModel } from './model-names.ts';
export type { ModelPrice } from './pricing.ts';
export { builtInPrices, costOf, priceOf } from './pricing.ts';
export type { RetryPolicy } from './retry.ts';
export { defaultRetryPolicy } from './retry.ts';
