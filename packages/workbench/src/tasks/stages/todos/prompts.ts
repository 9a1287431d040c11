const todoFormat =
  'Answer with the list only, as a JSON array in a ```json fence: [{"title": "...", "description": "...", "expected_output": "..."}]. ' +
  'Order them so each can be done after the previous ones; each must be small enough for one focused session.';

export function todoPrompt(plan: string): string {
  return [
    'The plan is locked. Break it into an ordered list of todos.',
    todoFormat,
    '',
    '## plan.md',
    plan.trim(),
  ].join('\n');
}

export function todoAdjustPrompt(
  message: string,
  current: { title: string; description: string; expected_output: string }[] = [],
): string {
  const list = current.map(({ title, description, expected_output }) => ({
    title,
    description,
    expected_output,
  }));
  return [
    `Adjust the todo list: ${message}`,
    'Answer with the complete adjusted list.',
    todoFormat,
    ...(list.length
      ? ['', 'The list as it is now (the user may have edited it by hand):', JSON.stringify(list, null, 2)]
      : []),
  ].join('\n');
}
