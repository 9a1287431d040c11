import { readFileSync } from 'node:fs';

// Read at run time rather than imported: the package.json sits outside the sources.
const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

export const version: string = packageJson.version;
