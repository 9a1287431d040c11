import type { RunMetadata } from '../events/index.ts';

/**
 * Structured metadata of a finished run, derived from the answer and from what happened on the way:
 * the summary is the answer's first sentence or line, `issues` are the tool errors met, `next_steps`
 * the items of a "Next steps" section if the answer has one, and confidence drops with each error.
 */
export function deriveMetadata(output: string, toolErrors: readonly string[]): RunMetadata {
  const issues = [...new Set(toolErrors)].slice(0, 20);
  const confidence = Math.max(0.2, 0.9 - 0.1 * issues.length);
  return {
    summary: summarize(output),
    confidence: Math.round(confidence * 100) / 100,
    issues,
    next_steps: nextSteps(output),
  };
}

function summarize(output: string): string {
  const firstLine =
    output
      .trim()
      .split('\n')
      .find((line) => line.trim() !== '') ?? '';
  const clean = firstLine.replace(/^[#>*\-\s]+/, '').trim();
  const sentence = clean.match(/^.*?[.!?](\s|$)/)?.[0]?.trim() ?? clean;
  return sentence.length > 200 ? `${sentence.slice(0, 197)}...` : sentence;
}

function nextSteps(output: string): string[] {
  const lines = output.split('\n');
  const start = lines.findIndex((line) => /^\W*next steps?\W*$/i.test(line.trim()));
  if (start < 0) return [];
  const steps: string[] = [];
  for (const line of lines.slice(start + 1)) {
    const item = line.match(/^\s*(?:[-*+]|\d+[.)])\s+(.*)$/)?.[1];
    if (item) steps.push(item.trim());
    else if (line.trim() !== '' && steps.length > 0) break;
  }
  return steps;
}
