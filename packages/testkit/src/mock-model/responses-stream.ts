import type { ResolvedReply } from './resolve-reply.ts';
import type { ResponsesContext } from './responses-body.ts';
import {
  functionCallItem,
  messageItem,
  outputItems,
  outputText,
  reasoningItem,
  responseObject,
  responsesUsage,
} from './responses-body.ts';
import { splitArguments, splitText } from './split-text.ts';
import { sseEvent } from './sse.ts';
import type { Usage } from './usage.ts';

/**
 * The SSE events of a streamed Responses answer, in OpenAI's order: created, in_progress, then per
 * output item `output_item.added` … deltas … `output_item.done`, and `response.completed` with usage.
 * Every event carries its `type` and a `sequence_number` from 0.
 */
export function responsesEvents(
  reply: ResolvedReply,
  usage: Usage,
  context: ResponsesContext,
  chunkSize: number,
): string[] {
  const events: string[] = [];
  const emit = (type: string, fields: object): void => {
    events.push(sseEvent(type, { type, sequence_number: events.length, ...fields }));
  };
  const { ids } = context;
  emit('response.created', { response: responseObject(context, undefined) });
  emit('response.in_progress', { response: responseObject(context, undefined) });
  let outputIndex = 0;

  if (reply.reasoning !== undefined) {
    const at = { item_id: ids.reasoning, output_index: outputIndex, summary_index: 0 };
    const text = reply.reasoning;
    emit('response.output_item.added', {
      output_index: outputIndex,
      item: reasoningItem(ids.reasoning, undefined),
    });
    emit('response.reasoning_summary_part.added', { ...at, part: { type: 'summary_text', text: '' } });
    for (const delta of splitText(text, chunkSize))
      emit('response.reasoning_summary_text.delta', { ...at, delta });
    emit('response.reasoning_summary_text.done', { ...at, text });
    emit('response.reasoning_summary_part.done', { ...at, part: { type: 'summary_text', text } });
    emit('response.output_item.done', {
      output_index: outputIndex,
      item: reasoningItem(ids.reasoning, text),
    });
    outputIndex += 1;
  }

  if (reply.text !== undefined) {
    const at = { item_id: ids.message, output_index: outputIndex, content_index: 0 };
    const text = reply.text;
    emit('response.output_item.added', {
      output_index: outputIndex,
      item: messageItem(ids.message, undefined, 'in_progress'),
    });
    emit('response.content_part.added', { ...at, part: outputText('') });
    for (const delta of splitText(text, chunkSize)) {
      emit('response.output_text.delta', { ...at, delta, logprobs: [] });
    }
    emit('response.output_text.done', { ...at, text, logprobs: [] });
    emit('response.content_part.done', { ...at, part: outputText(text) });
    emit('response.output_item.done', {
      output_index: outputIndex,
      item: messageItem(ids.message, text, 'completed'),
    });
    outputIndex += 1;
  }

  reply.toolCalls.forEach((call, index) => {
    const id = ids.calls[index] ?? '';
    const at = { item_id: id, output_index: outputIndex };
    emit('response.output_item.added', {
      output_index: outputIndex,
      item: functionCallItem(id, call, '', 'in_progress'),
    });
    for (const delta of splitArguments(call.arguments, chunkSize)) {
      emit('response.function_call_arguments.delta', { ...at, delta });
    }
    emit('response.function_call_arguments.done', { ...at, name: call.name, arguments: call.arguments });
    emit('response.output_item.done', {
      output_index: outputIndex,
      item: functionCallItem(id, call, call.arguments, 'completed'),
    });
    outputIndex += 1;
  });

  emit('response.completed', {
    response: responseObject(context, {
      output: outputItems(reply, ids),
      usage: responsesUsage(usage, reply),
    }),
  });
  return events;
}
