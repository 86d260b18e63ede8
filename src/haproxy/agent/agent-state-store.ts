/**
 * The agent's persisted state (`.haptic-agent/state.json`): the last committed plan id, the
 * highest accepted leader epoch, and the digests of the files that plan wrote. At start the
 * digests are compared with the disk; a disagreement means the baseline is unknown.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AgentStateError } from './agent-errors.js';
import { AGENT_DIR } from './apply-request.js';
import { atomicWriteFile } from './atomic-write-file.js';

/** What state.json holds. */
export interface AgentState {
  readonly planId: string | null;
  readonly leaderEpoch: number;
  readonly files: readonly { readonly path: string; readonly digest: string }[];
}

/** The state before any apply. */
export const EMPTY_AGENT_STATE: AgentState = { planId: null, leaderEpoch: 0, files: [] };

/** Path of the state file in `baseDir`. */
export function agentStatePath(baseDir: string): string {
  return join(baseDir, AGENT_DIR, 'state.json');
}

/** Reads state.json; undefined when it does not exist, AgentStateError when it is corrupt. */
export async function loadAgentState(baseDir: string): Promise<AgentState | undefined> {
  let text: string;
  try {
    text = await readFile(agentStatePath(baseDir), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new AgentStateError('read agent state', { cause: err });
  }
  try {
    const v = JSON.parse(text) as Partial<AgentState>;
    if (
      (v.planId !== null && typeof v.planId !== 'string') ||
      typeof v.leaderEpoch !== 'number' ||
      !Array.isArray(v.files)
    ) {
      throw new Error('unexpected shape');
    }
    return { planId: v.planId, leaderEpoch: v.leaderEpoch, files: v.files };
  } catch (err) {
    throw new AgentStateError(`agent state ${agentStatePath(baseDir)} is corrupt`, { cause: err });
  }
}

/** Writes state.json atomically. */
export async function saveAgentState(baseDir: string, state: AgentState): Promise<void> {
  await atomicWriteFile(agentStatePath(baseDir), `${JSON.stringify(state, null, 2)}\n`);
}

/** True when the state's file digests equal the tree's, path for path. */
export function stateMatchesTree(
  state: AgentState,
  tree: readonly { readonly path: string; readonly digest: string }[],
): boolean {
  if (state.files.length !== tree.length) return false;
  const byPath = new Map(state.files.map((f) => [f.path, f.digest]));
  return tree.every((f) => byPath.get(f.path) === f.digest);
}
