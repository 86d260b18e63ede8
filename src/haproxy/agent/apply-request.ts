/**
 * The body of `POST /v1/apply` and its strict validation: unknown fields, unsafe paths, malformed
 * digests or base64 are refused before anything is read from or written to disk.
 */
import { AgentBadRequestError } from './agent-errors.js';

/** One file of the desired set. */
export interface ApplyFile {
  /** Relative to the base directory, `/`-separated. */
  readonly path: string;
  /** Lower-case hex sha256 of the content. */
  readonly digest: string;
  /** The content, decoded from base64; absent when the agent is expected to hold the digest. */
  readonly content?: Buffer;
}

/** A validated apply request. */
export interface ApplyRequest {
  readonly planId: string;
  /** When set, the apply only proceeds if the agent's current plan id equals it (null = none). */
  readonly expectedPrevPlanId?: string | null;
  readonly leaderEpoch: number;
  readonly files: readonly ApplyFile[];
  readonly deletes: readonly string[];
  readonly mode: 'auto' | 'reload';
}

/** The directory inside the base dir where the agent keeps its state, staging tree and journal. */
export const AGENT_DIR = '.haptic-agent';

/** Limits enforced on a request. */
export const APPLY_LIMITS = { maxFiles: 4096, maxPathBytes: 255, maxPlanIdLength: 256 } as const;

const TOP_FIELDS = new Set([
  'planId',
  'expectedPrevPlanId',
  'leaderEpoch',
  'files',
  'deletes',
  'mode',
]);
const FILE_FIELDS = new Set(['path', 'digest', 'content']);
const DIGEST = /^[0-9a-f]{64}$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f\\]/;
const PLAN_ID = /^[A-Za-z0-9._:@/+=-]+$/;

function bad(
  reason: ConstructorParameters<typeof AgentBadRequestError>[0],
  message: string,
): never {
  throw new AgentBadRequestError(reason, message);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function checkFields(obj: Record<string, unknown>, allowed: Set<string>, where: string): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.has(key)) bad('unknown_field', `unknown field "${key}" in ${where}`);
  }
}

/**
 * Checks that `path` is a safe relative path inside the base directory: no absolute path, no
 * `..` or `.` segment, no empty segment, no backslash or control character, not inside the
 * agent's own directory, at most 255 bytes.
 */
export function validateRelativePath(path: unknown, where: string): string {
  if (typeof path !== 'string' || path.length === 0)
    bad('bad_path', `${where}: path must be a non-empty string`);
  if (Buffer.byteLength(path) > APPLY_LIMITS.maxPathBytes) {
    bad('bad_path', `${where}: path longer than ${APPLY_LIMITS.maxPathBytes} bytes`);
  }
  if (path.startsWith('/')) bad('bad_path', `${where}: absolute path "${path}" is not allowed`);
  if (CONTROL.test(path))
    bad('bad_path', `${where}: path contains a backslash or control character`);
  const segments = path.split('/');
  for (const seg of segments) {
    if (seg === '' || seg === '.' || seg === '..') {
      bad('bad_path', `${where}: path "${path}" has an empty, "." or ".." segment`);
    }
  }
  if (segments[0] === AGENT_DIR) bad('bad_path', `${where}: ${AGENT_DIR}/ belongs to the agent`);
  return path;
}

/** Validates a parsed JSON body; throws AgentBadRequestError naming the first problem. */
export function parseApplyRequest(body: unknown): ApplyRequest {
  if (!isRecord(body)) bad('invalid_field', 'the body must be a JSON object');
  checkFields(body, TOP_FIELDS, 'the request');
  const { planId, expectedPrevPlanId, leaderEpoch, files, deletes, mode } = body;
  if (
    typeof planId !== 'string' ||
    planId.length > APPLY_LIMITS.maxPlanIdLength ||
    !PLAN_ID.test(planId)
  ) {
    bad('invalid_field', 'planId must be a string of letters, digits and ._:@/+=- (at most 256)');
  }
  if (
    expectedPrevPlanId !== undefined &&
    expectedPrevPlanId !== null &&
    (typeof expectedPrevPlanId !== 'string' || !PLAN_ID.test(expectedPrevPlanId))
  ) {
    bad('invalid_field', 'expectedPrevPlanId must be a plan id or null');
  }
  if (typeof leaderEpoch !== 'number' || !Number.isSafeInteger(leaderEpoch) || leaderEpoch < 0) {
    bad('invalid_field', 'leaderEpoch must be a non-negative integer');
  }
  if (mode !== undefined && mode !== 'auto' && mode !== 'reload') {
    bad('invalid_field', 'mode must be "auto" or "reload"');
  }
  if (!Array.isArray(files)) bad('invalid_field', 'files must be an array');
  if (files.length > APPLY_LIMITS.maxFiles)
    bad('invalid_field', `more than ${APPLY_LIMITS.maxFiles} files`);
  const seen = new Set<string>();
  const parsedFiles = files.map((f: unknown, i): ApplyFile => {
    const where = `files[${i}]`;
    if (!isRecord(f)) bad('invalid_field', `${where} must be an object`);
    checkFields(f, FILE_FIELDS, where);
    const path = validateRelativePath(f['path'], where);
    if (seen.has(path)) bad('invalid_field', `${where}: path "${path}" listed twice`);
    seen.add(path);
    const digest = f['digest'];
    if (typeof digest !== 'string' || !DIGEST.test(digest)) {
      bad('invalid_field', `${where}: digest must be 64 lower-case hex characters (sha256)`);
    }
    const content = f['content'];
    if (content === undefined) return { path, digest };
    if (typeof content !== 'string' || !BASE64.test(content)) {
      bad('invalid_field', `${where}: content must be base64`);
    }
    return { path, digest, content: Buffer.from(content, 'base64') };
  });
  const deleteList: unknown[] =
    deletes === undefined
      ? []
      : Array.isArray(deletes)
        ? deletes
        : bad('invalid_field', 'deletes must be an array');
  const parsedDeletes = deleteList.map((d, i) => {
    const path = validateRelativePath(d, `deletes[${i}]`);
    if (seen.has(path)) bad('invalid_field', `deletes[${i}]: "${path}" is also in files`);
    return path;
  });
  return {
    planId,
    ...(expectedPrevPlanId !== undefined ? { expectedPrevPlanId } : {}),
    leaderEpoch,
    files: parsedFiles,
    deletes: parsedDeletes,
    mode: mode ?? 'auto',
  };
}
