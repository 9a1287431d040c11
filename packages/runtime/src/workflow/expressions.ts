import type { JsonValue } from '../store/index.ts';
import type { Predicate } from './definition.ts';
import type { SchedulerState } from './state.ts';

/** A node's output as text: strings as they are, anything else as JSON. */
export function outputText(value: JsonValue | undefined): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Evaluates a predicate over the outputs of nodes that ran; a node that did not run has empty output. */
export function evaluate(predicate: Predicate, state: SchedulerState): boolean {
  if ('all' in predicate) return predicate.all.every((each) => evaluate(each, state));
  if ('any' in predicate) return predicate.any.some((each) => evaluate(each, state));
  const text = outputText(state.nodes[predicate.output_of]?.output);
  let holds = true;
  if (predicate.contains !== undefined) holds &&= text.includes(predicate.contains);
  if (predicate.equals !== undefined) holds &&= text.trim() === predicate.equals;
  if (predicate.matches !== undefined) holds &&= new RegExp(predicate.matches).test(text);
  return predicate.not ? !holds : holds;
}

/** Fills `{{input.<field>}}` and `{{nodes.<id>.output}}` in a template. */
export function render(template: string, input: Record<string, JsonValue>, state: SchedulerState): string {
  return template.replace(/\{\{\s*(input|nodes)\.([\w.-]+?)(?:\.output)?\s*\}\}/g, (_, scope, key) =>
    scope === 'input' ? outputText(input[key]) : outputText(state.nodes[key]?.output),
  );
}

/** Renders every string inside a JSON-like value (tool parameters). */
export function renderDeep(value: unknown, input: Record<string, JsonValue>, state: SchedulerState): unknown {
  if (typeof value === 'string') return render(value, input, state);
  if (Array.isArray(value)) return value.map((each) => renderDeep(each, input, state));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renderDeep(v, input, state)]));
  }
  return value;
}
