import type { ParsedManifest } from '../types.ts';
import { unique } from './manifest-paths.ts';

/** pom.xml: the project's artifactId and each dependency as `groupId:artifactId`. */
export function parsePom(path: string, text: string): ParsedManifest {
  const withoutParent = text.replace(/<parent>[\s\S]*?<\/parent>/, '');
  const withoutDeps = withoutParent.replace(/<dependencies>[\s\S]*?<\/dependencies>/g, '');
  const name = /<artifactId>\s*([^<\s]+)\s*<\/artifactId>/.exec(withoutDeps)?.[1];
  const dependencies = [...withoutParent.matchAll(/<dependency>([\s\S]*?)<\/dependency>/g)].map((match) => {
    const body = match[1] ?? '';
    const group = /<groupId>\s*([^<\s]+)/.exec(body)?.[1];
    const artifact = /<artifactId>\s*([^<\s]+)/.exec(body)?.[1] ?? '';
    return group ? `${group}:${artifact}` : artifact;
  });
  return {
    manifest: { path, kind: 'maven', ...(name ? { name } : {}), dependencies: unique(dependencies) },
    entries: [],
    frameworks: [],
  };
}

const configurations =
  'implementation|api|compileOnly|runtimeOnly|testImplementation|testRuntimeOnly|testCompileOnly|androidTestImplementation|kapt|ksp|annotationProcessor|compile|testCompile';

/** build.gradle(.kts): `configuration 'group:artifact:version'` (or with parentheses) as `group:artifact`. */
export function parseGradle(path: string, text: string): ParsedManifest {
  const pattern = new RegExp(`\\b(?:${configurations})\\s*\\(?\\s*["']([^"':\\s]+):([^"':\\s]+)`, 'g');
  const dependencies = [...text.matchAll(pattern)].map((match) => `${match[1]}:${match[2]}`);
  return {
    manifest: { path, kind: 'gradle', dependencies: unique(dependencies) },
    entries: [],
    frameworks: [],
  };
}
