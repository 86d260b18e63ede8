import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  inClusterConnection,
  KubeConfigError,
  loadKubeConfigFile,
  resolveConnection,
} from '../../../../src/k8s/client/kube-config.js';

const CA = '-----BEGIN CERTIFICATE-----\nFAKECA\n-----END CERTIFICATE-----\n';
const b64 = (s: string): string => Buffer.from(s).toString('base64');

let dir: string;

function write(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

function config(
  user: string,
  cluster = `    server: https://10.0.0.1:6443/\n    certificate-authority-data: ${b64(CA)}`,
): string {
  return `apiVersion: v1
kind: Config
current-context: main
contexts:
- name: main
  context: {cluster: c1, user: u1}
- name: other
  context: {cluster: c1, user: u2}
clusters:
- name: c1
  cluster:
${cluster}
users:
- name: u1
  user:
${user}
- name: u2
  user:
    token: other-token
`;
}

describe('kubeconfig loading', () => {
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'haptic-kubeconfig-'));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads an inline token and CA data from the current context, trimming the server URL', () => {
    const c = loadKubeConfigFile(write('token.yaml', config('    token: abc')));
    assert.equal(c.server, 'https://10.0.0.1:6443');
    assert.equal(c.token, 'abc');
    assert.equal(c.caPem, CA);
  });

  it('selects a named context', () => {
    const c = loadKubeConfigFile(write('ctx.yaml', config('    token: abc')), 'other');
    assert.equal(c.token, 'other-token');
  });

  it('resolves a relative tokenFile and certificate-authority file against the kubeconfig directory', () => {
    write('ca.pem', CA);
    const c = loadKubeConfigFile(
      write(
        'files.yaml',
        config('    tokenFile: tok', '    server: https://h\n    certificate-authority: ca.pem'),
      ),
    );
    assert.equal(c.tokenFile, join(dir, 'tok'));
    assert.equal(c.caPem, CA);
  });

  it('reads a client certificate and key from data fields', () => {
    const c = loadKubeConfigFile(
      write(
        'cert.yaml',
        config(`    client-certificate-data: ${b64('CERT')}\n    client-key-data: ${b64('KEY')}`),
      ),
    );
    assert.equal(c.clientCertPem, 'CERT');
    assert.equal(c.clientKeyPem, 'KEY');
    assert.equal(c.token, undefined);
  });

  it('rejects malformed YAML with a KubeConfigError naming the file', () => {
    const p = write('bad.yaml', 'clusters: [unclosed\n  - : :');
    assert.throws(
      () => loadKubeConfigFile(p),
      (e: unknown) => e instanceof KubeConfigError && e.message.includes(p),
    );
  });

  it('rejects a missing context by name', () => {
    const p = write('noctx.yaml', config('    token: abc'));
    assert.throws(() => loadKubeConfigFile(p, 'nope'), /no context named "nope"/);
  });

  it('rejects a missing file and a missing CA file', () => {
    assert.throws(() => loadKubeConfigFile(join(dir, 'absent.yaml')), KubeConfigError);
    const p = write(
      'noca.yaml',
      config('    token: a', '    server: https://h\n    certificate-authority: missing.pem'),
    );
    assert.throws(() => loadKubeConfigFile(p), /certificate-authority/);
  });

  it('rejects exec and auth-provider plugins instead of ignoring them', () => {
    const p = write(
      'exec.yaml',
      config('    exec:\n      command: aws\n      apiVersion: client.authentication.k8s.io/v1'),
    );
    assert.throws(() => loadKubeConfigFile(p), /exec or auth-provider plugin/);
  });

  it('builds the in-cluster connection from the service account directory and env', () => {
    const saDir = mkdtempSync(join(dir, 'sa-'));
    writeFileSync(join(saDir, 'ca.crt'), CA);
    const c = inClusterConnection(
      { KUBERNETES_SERVICE_HOST: 'fd00::1', KUBERNETES_SERVICE_PORT: '443' },
      saDir,
    );
    assert.equal(c.server, 'https://[fd00::1]:443');
    assert.equal(c.caPem, CA);
    assert.equal(c.tokenFile, join(saDir, 'token'));
  });

  it('refuses in-cluster mode outside a cluster with an actionable message', () => {
    assert.throws(() => inClusterConnection({}, dir), /KUBERNETES_SERVICE_HOST is not set/);
  });

  it('prefers an explicit path, then KUBECONFIG, then in-cluster', () => {
    const a = write('a.yaml', config('    token: from-a'));
    const b = write('b.yaml', config('    token: from-b'));
    assert.equal(resolveConnection({ kubeconfig: a, env: { KUBECONFIG: b } }).token, 'from-a');
    assert.equal(resolveConnection({ env: { KUBECONFIG: `${b}:${a}` } }).token, 'from-b');
    assert.throws(
      () => resolveConnection({ env: { KUBERNETES_SERVICE_HOST: '10.0.0.1' } }),
      /service account CA/,
    );
  });
});
