/**
 * The entry of `table` for `model`: its own name, or else the longest name it begins with when a separator
 * follows (`gpt-4o-2024-08-06` → `gpt-4o`, `llama3.1:8b` → `llama3.1`, `o3@2025` → `o3`). A provider
 * prefix such as `openai/` or `meta-llama/` is ignored, and so is letter case. Undefined when none matches.
 */
export function lookupModel<T>(model: string, table: Readonly<Record<string, T>>): T | undefined {
  const name = model.toLowerCase();
  const bare = name.slice(name.lastIndexOf('/') + 1);
  let best: string | undefined;
  let bestLength = -1;
  for (const key of Object.keys(table)) {
    const entry = key.toLowerCase();
    if (entry === name || entry === bare) return table[key];
    // `gpt-4oops` is not a variant of `gpt-4o`: the next character must separate the name.
    const variant = bare.startsWith(entry) && '-:.@'.includes(bare.charAt(entry.length) || 'x');
    if (variant && entry.length > bestLength) {
      best = key;
      bestLength = entry.length;
    }
  }
  return best === undefined ? undefined : table[best];
}
