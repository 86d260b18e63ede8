import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';
import { projectCrds } from '../../../../src/k8s/crds/project-crds.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const run = promisify(execFile);

async function haptic(...args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
    cwd: root,
    timeout: 30_000,
    maxBuffer: 16 * 1024 * 1024,
  });
}

describe('haptic crds (child process)', () => {
  it('print writes every project CRD as multi-document YAML equal to the in-code definitions', async () => {
    const { stdout, stderr } = await haptic('crds', 'print');
    assert.equal(stderr, '');
    const docs = parseAllDocuments(stdout);
    for (const doc of docs) assert.deepEqual(doc.errors, []);
    assert.deepEqual(
      docs.map((d) => d.toJS() as unknown),
      projectCrds().map((c) => JSON.parse(JSON.stringify(c)) as unknown),
    );
    assert.ok(stdout.startsWith('---\napiVersion: apiextensions.k8s.io/v1\n'));
  });

  it('apply --help names the field manager and the kubeconfig and context options', async () => {
    const { stdout } = await haptic('crds', 'apply', '--help');
    assert.match(stdout, /haptic-crd-installer/);
    assert.match(stdout, /--kubeconfig <path>/);
    assert.match(stdout, /--context <name>/);
  });

  it('apply fails with a typed, actionable error when the kubeconfig does not exist', async () => {
    await assert.rejects(
      haptic('crds', 'apply', '--kubeconfig', '/nonexistent/kubeconfig'),
      (err: any) => {
        assert.equal(err.code, 1);
        assert.match(err.stderr, /error: .*\/nonexistent\/kubeconfig/);
        return true;
      },
    );
  });
});
