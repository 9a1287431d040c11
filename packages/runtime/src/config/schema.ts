import { z } from 'zod';
import { modelProfileNames } from '../model/index.ts';

/** One language's server in config `lsp.servers`; what it leaves unset keeps the built-in server's. */
const lspServerSchema = z.looseObject({
  /** The program to start instead of the built-in server (which runs on this Node); it speaks LSP on stdio. */
  command: z.string().min(1).optional(),
  /** Its arguments (default none with a `command`, the built-in server's otherwise). */
  args: z.array(z.string()).optional(),
  /** Environment variables on top of the runtime's (its secrets removed). */
  env: z.record(z.string(), z.string()).optional(),
  /** `initializationOptions` of LSP `initialize`, over the built-in server's. */
  initialization_options: z.record(z.string(), z.unknown()).optional(),
  /** Workspace settings, sent once started and answered to `workspace/configuration`, over the built-in ones. */
  settings: z.record(z.string(), z.unknown()).optional(),
});

/** The configuration file's shape (spec section 2). Unknown keys are kept, so newer files still load. */
export const configSchema = z.looseObject({
  /**
   * Before trust was pinned to content: folders whose project files applied in full. Such an entry now
   * trusts nothing (docs/decisions/2026-11-28-trust-pinned-to-content.md); it is read only to tell the
   * user to run `keel trust` again.
   */
  trusted_folders: z.array(z.string()).optional(),
  /**
   * The project files the user approved (`keel trust`), each with what it asked for then: it applies its
   * security-relevant keys only while it asks for exactly that. Read from the global file only.
   */
  trusted_project_configs: z
    .array(
      z.looseObject({
        file: z.string(),
        sha256: z.string(),
        keys: z.record(z.string(), z.string()),
        trusted_at: z.string().optional(),
      }),
    )
    .optional(),
  model: z.string().optional(),
  model_base_url: z.string().optional(),
  /**
   * How to read and write the model server's dialect (model/profiles.ts, docs/models.md); chosen from the
   * endpoint and the model's name when unset.
   */
  model_profile: z.enum(modelProfileNames).optional(),
  /** Thinking mode by default (a request's `enable_thinking` wins). */
  enable_thinking: z.boolean().optional(),
  thinking_budget: z.number().int().positive().optional(),
  skills: z
    .looseObject({
      enabled: z.array(z.string()).optional(),
      disabled: z.array(z.string()).optional(),
      custom_dirs: z.array(z.string()).optional(),
    })
    .optional(),
  mcp: z
    .looseObject({
      servers: z
        .array(
          z.looseObject({
            name: z.string(),
            /** `http` is MCP's streamable HTTP; `sse` the older HTTP+SSE transport, for servers that have only it. */
            transport: z.enum(['stdio', 'http', 'sse']),
            command: z.string().optional(),
            args: z.array(z.string()).optional(),
            env: z.record(z.string(), z.string()).optional(),
            /** For http and sse: where the server listens, and headers sent on every request (often a token). */
            url: z.string().optional(),
            headers: z.record(z.string(), z.string()).optional(),
            /** How long the server may take to start and answer `initialize` (default 30000). */
            connect_timeout_ms: z.number().int().positive().optional(),
            /** How long one tool call may take (default 120000). */
            call_timeout_ms: z.number().int().positive().optional(),
          }),
        )
        .optional(),
    })
    .optional(),
  /**
   * The language-server tools (lsp_diagnostics, lsp_definition, lsp_references, lsp_hover; defaults in
   * tools/lsp/lsp-config.ts): time limits, when an idle server stops, and each language's server command.
   */
  lsp: z
    .looseObject({
      /** A server unused this long is stopped; the next query starts it again (default 300000). */
      idle_timeout_ms: z.number().int().positive().optional(),
      /** How long a server may take to start and answer `initialize` (default 30000). */
      start_timeout_ms: z.number().int().positive().optional(),
      /** How long one definition, references or hover query may take (default 30000). */
      request_timeout_ms: z.number().int().positive().optional(),
      /** How long lsp_diagnostics waits for the server to publish a file's diagnostics (default 30000). */
      diagnostics_timeout_ms: z.number().int().positive().optional(),
      /** By language (`typescript` also serves JavaScript, `python`): replaces or adjusts the built-in server. */
      servers: z
        .looseObject({ typescript: lspServerSchema.optional(), python: lspServerSchema.optional() })
        .optional(),
    })
    .optional(),
  security: z
    .looseObject({
      allowed_commands: z.array(z.string()).optional(),
      blocked_commands: z.array(z.string()).optional(),
      /**
       * Variables of the runtime's environment that commands get on top of the default minimal set
       * (tools/commands/command-env.ts): names, or prefixes ending in `*`.
       */
      env_allow: z.array(z.string().min(1)).optional(),
      strict_read_boundary: z.boolean().optional(),
      allowed_roots: z.array(z.string()).optional(),
      /** Tools whose calls wait for a human's approval before they run, e.g. ["write_file", "edit_file"]. */
      require_approval: z.array(z.string()).optional(),
    })
    .optional(),
  /** Where exec_command runs (sandbox/create-sandbox.ts): on by default where bubblewrap or Seatbelt is. */
  sandbox: z
    .looseObject({
      enabled: z.boolean().optional(),
      backend: z.string().optional(),
      network_mode: z.string().optional(),
      /** The image of the docker and podman backends. */
      image: z.string().min(1).optional(),
      /** Paths commands may read inside the folders the read boundary hides (absolute, or `~/…`). */
      readable_paths: z.array(z.string().regex(/^(\/|~\/)/, 'an absolute path or one under ~/')).optional(),
      /** The remote backend's provider (docs/remote-sandbox.md); the token is read from `token_env`. */
      remote: z
        .looseObject({
          url: z
            .string()
            .regex(/^https?:\/\/[^/]/, 'an http(s) URL')
            .optional(),
          token_env: z
            .string()
            .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'the name of an environment variable')
            .optional(),
          idle_timeout_s: z.number().int().positive().optional(),
          exclude: z
            .array(
              z
                .string()
                .min(1)
                .regex(/^[^/]+$/, 'a file or directory name'),
            )
            .optional(),
        })
        .optional(),
    })
    .optional(),
  circuit_breaker: z
    .looseObject({
      enabled: z.boolean().optional(),
      max_tokens: z.number().int().nonnegative().optional(),
      max_cost_usd: z.number().nonnegative().optional(),
      max_steps: z.number().int().nonnegative().optional(),
      loop_detect_turns: z.number().int().positive().optional(),
      loop_similarity_threshold: z.number().min(0).max(1).optional(),
    })
    .optional(),
  /**
   * Model prices in USD per million tokens, by model name (or the prefix of its dated variants), for the
   * circuit breaker's cost estimate; over the built-in table of well-known hosted models.
   */
  pricing: z
    .record(
      z.string(),
      z.object({
        input_per_million: z.number().nonnegative(),
        output_per_million: z.number().nonnegative(),
      }),
    )
    .optional(),
  rate_limit: z.looseObject({ enabled: z.boolean().optional() }).optional(),
  /**
   * Context management of long runs (docs/decisions/2026-11-23-context-management.md): once a conversation
   * passes `threshold` of its model's context window, old tool outputs are pruned, then the history compacted.
   */
  context: z
    .looseObject({
      /** Default true. */
      enabled: z.boolean().optional(),
      /** Share of the window that triggers pruning and compaction (default 0.8). */
      threshold: z.number().positive().max(1).optional(),
      /** Most recent tool outputs pruning leaves intact (default 3). */
      keep_tool_outputs: z.number().int().nonnegative().optional(),
      /** Context windows in tokens by model name (or the prefix of its variants), over the built-in table. */
      windows: z.record(z.string(), z.number().int().positive()).optional(),
    })
    .optional(),
  /**
   * Seconds an approval or a question waits for a human before it expires (spec section 8 rule 6); the run
   * then continues without the call, or without an answer. Default 0: wait as long as it takes.
   */
  interaction_timeout: z.number().nonnegative().optional(),
  /** Where runs live: SQLite (default, `<runtime dir>/keel.db`) or PostgreSQL (`@keel/store-postgres`). */
  store: z
    .discriminatedUnion('kind', [
      z.looseObject({ kind: z.literal('sqlite'), path: z.string().min(1).optional() }),
      z.looseObject({
        kind: z.literal('postgres'),
        url: z.string().min(1),
        schema: z
          .string()
          .regex(/^[a-z_][a-z0-9_]*$/)
          .optional(),
      }),
    ])
    .optional(),
  /** Where artifact payloads live: files (default, `<runtime dir>/artifacts`) or an S3-compatible bucket. */
  artifacts: z
    .discriminatedUnion('kind', [
      z.looseObject({ kind: z.literal('file'), dir: z.string().min(1).optional() }),
      z.looseObject({
        kind: z.literal('s3'),
        bucket: z.string().min(1),
        prefix: z.string().optional(),
        endpoint: z.string().optional(),
        region: z.string().optional(),
        force_path_style: z.boolean().optional(),
      }),
    ])
    .optional(),
  /**
   * webfetch and websearch (defaults in tools/web/web-settings.ts): the hosts webfetch may reach (cloud
   * metadata and link-local addresses never), its time and size limits, and the search provider.
   */
  web: z
    .looseObject({
      /** When set, webfetch reaches only these: names, `*.example.com`, addresses or CIDR ranges. */
      allowed_hosts: z.array(z.string()).optional(),
      /** Never fetched, in the same forms; checked on the name and on every address it resolves to. */
      blocked_hosts: z.array(z.string()).optional(),
      /** Loopback and private addresses (127/8, 10/8, 192.168/16, fc00::/7, …); default false. */
      allow_private_network: z.boolean().optional(),
      /** Time limit of one fetch, redirects included (default 30000). */
      timeout_ms: z.number().int().positive().optional(),
      /** Largest response body read (default 5 MiB). */
      max_response_bytes: z.number().int().positive().optional(),
      search: z
        .looseObject({
          /** `searxng` (needs base_url) or `brave` (needs BRAVE_SEARCH_API_KEY); checked when websearch runs. */
          provider: z.string().optional(),
          /** The provider's address: a SearXNG instance, or Brave's API (default its public one). */
          base_url: z.string().optional(),
        })
        .optional(),
    })
    .optional(),
  /**
   * Sub-agents (spec section 8; docs/decisions/2026-11-23-sub-agents.md): how many may be pending or
   * running at once in one store, and how long one may take when its spawn names no timeout.
   */
  sub_agents: z
    .looseObject({
      /** Default 5; a spawn beyond it is refused with AGENT_LIMIT_REACHED. */
      max_concurrent: z.number().int().positive().optional(),
      /** Default 300; a sub-agent still working after it ends with status `timeout`. */
      timeout_seconds: z.number().positive().max(86_400).optional(),
      /**
       * Specialists of your own, by the capability they serve (a task graph routes tasks by it; an agent
       * node names it): a role prompt and the tools they may use (default all). A built-in name replaces it.
       */
      specialists: z
        .record(
          z.string().regex(/^[\w-]{1,32}$/, 'capabilities are 1-32 letters, digits, _ or -'),
          z.strictObject({
            description: z.string().min(1).max(300).optional(),
            prompt: z.string().min(1).max(20_000),
            tools: z.array(z.string().min(1)).optional(),
          }),
        )
        .optional(),
    })
    .optional(),
  /** Durable run settings. */
  runs: z
    .looseObject({
      /** How long a worker's claim on a running run lasts without renewal (default 15000). */
      lease_ms: z.number().int().min(500).optional(),
      /** Time budget of every run in ms (default 0: none). */
      max_duration_ms: z.number().int().nonnegative().optional(),
      /**
       * Whether a worker takes over a run whose lease expired (its worker or server died) and queues it
       * again from its last checkpoint, as `keel runs recover` does (default true).
       */
      auto_recover: z.boolean().optional(),
      /** How many times a run is recovered before it ends `failed` instead (default 3). */
      max_recoveries: z.number().int().nonnegative().optional(),
    })
    .optional(),
});

export type RuntimeConfig = z.infer<typeof configSchema>;
