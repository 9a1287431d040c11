// The front matter of most SKILL.md files is a few `key: plain text` lines. Reading those here spares a run
// the YAML library's load (~15 ms of `keel run`'s start, issue #44): it gives exactly what YAML would.
// Anything this does not recognise as such a line goes to the YAML library instead.

// A key YAML reads as that same string: letters, digits, `_` and `-`, starting with a letter.
const keyValue = /^([A-Za-z][\w-]{0,99}):[ ]+(.*)$/;
// A plain scalar YAML reads as that same string, trailing spaces dropped: not starting with an indicator
// character or what could be a number, null, boolean or `.inf`/`.nan`; no `: ` or ` #` (a mapping, a
// comment) and no `:` at the end; no control characters (tab included) or line separators.
const indicator = /^[-?:,[\]{}#&*!|>'"%@`+.~0-9]/;
const special = /^(?:null|true|false)$/i;
const unsafe = /: |:$| #|[\p{Cc}\u2028\u2029\ufeff]/u;

/**
 * The mapping `yaml` (`key: value` lines and blank lines, each value plain text) stands for, or undefined
 * when it is anything else: other YAML, or YAML that would fail to parse (a repeated key).
 */
export function parseSimpleFrontMatter(yaml: string): Record<string, string> | undefined {
  const data: Record<string, string> = {};
  for (const line of yaml.split(/\r?\n/)) {
    if (/^ *$/.test(line)) continue;
    const match = keyValue.exec(line);
    if (!match) return undefined;
    const [, key = '', raw = ''] = match;
    // YAML drops a plain scalar's trailing spaces (only spaces and tabs are white space to it).
    const value = raw.replace(/ +$/, '');
    if (value === '' || indicator.test(value) || special.test(value) || unsafe.test(value)) return undefined;
    if (special.test(key) || Object.hasOwn(data, key)) return undefined;
    data[key] = value;
  }
  // Nothing but blank lines is YAML's null, not a mapping.
  return Object.keys(data).length > 0 ? data : undefined;
}
