export interface LanguageShare {
  language: string;
  files: number;
  /** Share of the files in a known language, 0–100, one decimal. */
  percent: number;
}

export interface Manifest {
  /** Path relative to the scanned root. */
  path: string;
  /** npm, python, go, rust, maven, gradle, ruby, php, dotnet. */
  kind: string;
  name?: string;
  scripts?: Record<string, string>;
  /** Package names, runtime and development alike, without versions. */
  dependencies: string[];
}

export interface RepositoryScan {
  root: string;
  /** The repository's own files, links not counted. */
  files_total: number;
  /** Symbolic links (files, or folders once), relative paths: named, never read or walked through. */
  links: string[];
  /** An indented directory listing, depth- and size-bounded, directories first. */
  tree: string;
  /** By file extension, sorted by files, most first. */
  languages: LanguageShare[];
  manifests: Manifest[];
  /** Files where execution starts: manifest main/bin fields, src/index.*, main.*, cmd/x/main.go, __main__.py... */
  entry_points: string[];
  tests: { dirs: string[]; files: number; frameworks: string[] };
}

/** A manifest plus what it says about entry points and test frameworks. */
export interface ParsedManifest {
  manifest: Manifest;
  /** Entry files named by the manifest, relative to the scanned root. */
  entries: string[];
  /** Test frameworks the manifest reveals beyond its dependency names (e.g. `[tool.pytest.ini_options]`). */
  frameworks: string[];
}
