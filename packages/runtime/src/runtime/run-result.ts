import type { RunMetadata, ToolTrace, Usage } from '../events/index.ts';

/** The run result of spec section 2, plus the `metadata` the `done` event carries. */
export interface RunResult {
  status: 'success';
  output: string;
  thinking: string;
  tool_traces: ToolTrace[];
  session_id: string;
  /** The stored run: list, watch and replay it from any process. */
  run_id: string;
  usage: Usage;
  metadata: RunMetadata;
}
