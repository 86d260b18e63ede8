/** Evaluates one assertion of an embedded validation test against a render outcome. */
import { evaluateJsonPath } from './json-path.js';
import type { RenderOutput } from './render-output.js';
import type { StatusPatch } from './status-patch.js';
import type { AssertionConfig, AssertionTarget } from './template-config.js';
import type { TemplateRenderError } from './template-errors.js';
import { toText } from './to-text.js';

/** Result of one assertion, as `haptic validate -o json` prints it. */
export interface AssertionResult {
  readonly type: string;
  readonly target: string;
  readonly passed: boolean;
  readonly message: string;
  readonly description?: string;
}

/** What an assertion can look at; expensive checks are lazy and shared within one test. */
export interface AssertionSubject {
  readonly output: RenderOutput | null;
  readonly error: TemplateRenderError | null;
  /** The render context as plain data (for `jsonpath`). */
  readonly context: () => unknown;
  /** Runs `haproxy -c` on the rendered set (memoised per test). */
  readonly haproxyCheck: () => Promise<{ valid: boolean; message: string }>;
  /** Renders again and returns the output, for `deterministic`. */
  readonly renderAgain: () => RenderOutput;
}

type Content = { ok: true; text: string; value: unknown } | { ok: false; message: string };

function findVariant(
  patches: readonly StatusPatch[],
  t: Extract<AssertionTarget, { kind: 'status' }>,
): Content {
  const matches = patches.filter((p) => p.namespace === t.namespace && p.name === t.name);
  if (matches.length === 0) {
    return {
      ok: false,
      message: `no status patch registered for ${t.namespace ? `${t.namespace}/` : ''}${t.name}`,
    };
  }
  for (const p of matches) {
    const v = p.variants[t.phase];
    if (v !== undefined) return { ok: true, text: JSON.stringify(v), value: v };
  }
  const phases = [...new Set(matches.flatMap((p) => Object.keys(p.variants)))].join(', ');
  return {
    ok: false,
    message: `status patch for ${t.namespace}/${t.name} has no "${t.phase}" variant (has: ${phases || 'none'})`,
  };
}

function content(a: AssertionConfig, s: AssertionSubject): Content {
  const t = a.target;
  if (t.kind === 'rendering_error') {
    if (s.error) return { ok: true, text: s.error.detail, value: s.error.detail };
    return { ok: false, message: 'expected rendering to fail, but it succeeded' };
  }
  if (s.error || !s.output)
    return { ok: false, message: `rendering failed: ${s.error?.message ?? 'no output'}` };
  const files = s.output.files;
  const pick = (group: Readonly<Record<string, string>>, label: string, name: string): Content => {
    const text = group[name];
    if (text !== undefined) return { ok: true, text, value: text };
    const have = Object.keys(group);
    return {
      ok: false,
      message: `${label} "${name}" was not rendered (rendered: ${have.length ? have.join(', ') : 'none'})`,
    };
  };
  switch (t.kind) {
    case 'haproxy.cfg':
      return { ok: true, text: files.haproxyCfg, value: files.haproxyCfg };
    case 'map':
      return pick(files.maps, 'map', t.name);
    case 'file':
      return pick(files.files, 'file', t.name);
    case 'cert':
      return pick(files.certs, 'certificate', t.name);
    case 'crt-list':
      return pick(files.crtLists, 'crt-list', t.name);
    case 'status':
      return findVariant(s.output.statusPatches, t);
  }
}

function preview(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > 200 ? `${oneLine.slice(0, 200)}...` : oneLine;
}

function evaluate(
  a: AssertionConfig,
  s: AssertionSubject,
): Promise<{ passed: boolean; message: string }> | { passed: boolean; message: string } {
  const r = (passed: boolean, message: string) => ({ passed, message });
  if (a.type === 'haproxy_valid') {
    if (s.error || !s.output)
      return r(false, `rendering failed: ${s.error?.message ?? 'no output'}`);
    return s.haproxyCheck().then((c) => r(c.valid, c.message));
  }
  if (a.type === 'deterministic') {
    if (s.error || !s.output)
      return r(false, `rendering failed: ${s.error?.message ?? 'no output'}`);
    const again = s.renderAgain();
    if (again.checksum === s.output.checksum)
      return r(true, `two renders are byte-identical (${again.checksum})`);
    const first = s.output.files;
    const second = again.files;
    const diffs: string[] = [];
    if (first.haproxyCfg !== second.haproxyCfg) diffs.push('haproxy.cfg');
    for (const key of ['maps', 'files', 'certs', 'crtLists'] as const) {
      for (const n of new Set([...Object.keys(first[key]), ...Object.keys(second[key])])) {
        if (first[key][n] !== second[key][n]) diffs.push(`${key}/${n}`);
      }
    }
    return r(false, `two renders differ in: ${diffs.join(', ') || 'checksum only'}`);
  }
  const c = content(a, s);
  if (!c.ok) return r(false, c.message);
  switch (a.type) {
    case 'contains': {
      const found = new RegExp(a.pattern ?? '', 'm').test(c.text);
      return r(
        found,
        found
          ? `pattern /${a.pattern ?? ''}/ found`
          : `pattern /${a.pattern ?? ''}/ not found in ${a.targetText}: ${preview(c.text)}`,
      );
    }
    case 'not_contains': {
      const m = new RegExp(a.pattern ?? '', 'm').exec(c.text);
      return r(
        !m,
        m
          ? `pattern /${a.pattern ?? ''}/ unexpectedly found: ${JSON.stringify(m[0])}`
          : `pattern /${a.pattern ?? ''}/ absent`,
      );
    }
    case 'equals': {
      const expected = a.expected ?? '';
      const eq = c.text.trimEnd() === expected.trimEnd();
      return r(
        eq,
        eq
          ? `${a.targetText} equals the expected text`
          : `${a.targetText} differs: expected ${JSON.stringify(preview(expected))}, got ${JSON.stringify(preview(c.text))}`,
      );
    }
    case 'match_count': {
      const count = [...c.text.matchAll(new RegExp(a.pattern ?? '', 'gm'))].length;
      const expected = Number(a.expected);
      return r(
        count === expected,
        `pattern /${a.pattern ?? ''}/ matched ${count} time(s), expected ${expected}`,
      );
    }
    case 'match_order': {
      let pos = 0;
      for (const [i, p] of (a.patterns ?? []).entries()) {
        const re = new RegExp(p, 'gm');
        re.lastIndex = pos;
        const m = re.exec(c.text);
        if (!m) return r(false, `pattern #${i + 1} /${p}/ not found after the previous pattern`);
        pos = m.index + Math.max(m[0].length, 1);
      }
      return r(true, `${(a.patterns ?? []).length} patterns found in order`);
    }
    case 'jsonpath': {
      const root = a.target.kind === 'status' ? c.value : s.context();
      const values = evaluateJsonPath(root, a.jsonpath ?? '');
      const actual = values.map(toText).join(' ');
      if (a.expected === undefined) {
        return r(
          values.length > 0,
          values.length > 0
            ? `${a.jsonpath ?? ''} = ${JSON.stringify(actual)}`
            : `${a.jsonpath ?? ''} matched nothing`,
        );
      }
      const ok = actual === a.expected;
      return r(
        ok,
        ok
          ? `${a.jsonpath ?? ''} = ${JSON.stringify(actual)}`
          : `${a.jsonpath ?? ''} = ${JSON.stringify(actual)}, expected ${JSON.stringify(a.expected)}`,
      );
    }
  }
}

/** Runs assertion `a` against the subject and reports pass/fail with a reason. */
export async function runAssertion(
  a: AssertionConfig,
  s: AssertionSubject,
): Promise<AssertionResult> {
  let verdict: { passed: boolean; message: string };
  try {
    verdict = await evaluate(a, s);
  } catch (err) {
    verdict = { passed: false, message: err instanceof Error ? err.message : toText(err) };
  }
  return {
    type: a.type,
    target: a.targetText,
    passed: verdict.passed,
    message: verdict.message,
    ...(a.description !== undefined && { description: a.description }),
  };
}
