import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

import {
  certificateNames,
  parseCrtList,
  planCrtListChange,
} from '../../../../src/haproxy/plan/crt-list-file.js';

const fixture = (name: string): string =>
  readFileSync(
    new URL(
      `../../../golden/plan/runtime-certificate-new-sni/desired/certs/${name}`,
      import.meta.url,
    ),
    'utf8',
  );

describe('parseCrtList', () => {
  it('reads the certificate, the bracketed options and the SNI filters', () => {
    const lines = parseCrtList(
      '# list\ncerts/a.pem\n\ncerts/b.pem  [alpn h2 ssl-min-ver TLSv1.2]  b.example.com !x.b.example.com\n',
    );
    assert.deepEqual(lines, [
      { certPath: 'certs/a.pem', line: 'certs/a.pem', options: [], filters: [] },
      {
        certPath: 'certs/b.pem',
        line: 'certs/b.pem [alpn h2 ssl-min-ver TLSv1.2] b.example.com !x.b.example.com',
        options: ['alpn', 'h2', 'ssl-min-ver', 'TLSv1.2'],
        filters: ['b.example.com', '!x.b.example.com'],
      },
    ]);
  });
});

describe('certificateNames', () => {
  it('reads the DNS names of a PEM certificate and returns undefined for garbage', () => {
    assert.deepEqual(certificateNames(fixture('new.example.com.pem')), ['new.example.com']);
    assert.equal(certificateNames('not a certificate'), undefined);
  });
});

describe('planCrtListChange', () => {
  const names = (): readonly string[] | undefined => undefined;

  it('needs a reload when a certificate is listed twice', () => {
    const plan = planCrtListChange(
      ['l'],
      parseCrtList('a.pem\nb.pem\n'),
      parseCrtList('a.pem\nb.pem x\nb.pem y\n'),
      names,
    );
    assert.match(plan.reload ?? '', /listed twice/);
  });

  it('appends new entries and deletes gone ones', () => {
    const plan = planCrtListChange(
      ['l'],
      parseCrtList('a.pem\nb.pem\n'),
      parseCrtList('a.pem\nc.pem\n'),
      names,
    );
    assert.equal(plan.reload, undefined);
    assert.deepEqual(plan.updates, [{ op: 'crtlist.add', crtList: 'l', line: 'c.pem' }]);
    assert.deepEqual(plan.deletes, [{ op: 'crtlist.delete', crtList: 'l', certPath: 'b.pem' }]);
    assert.deepEqual(plan.usedCerts, ['c.pem']);
  });

  it('needs a reload for an insertion before existing entries when names are unknown', () => {
    const plan = planCrtListChange(
      ['l'],
      parseCrtList('a.pem\nb.pem\n'),
      parseCrtList('a.pem\nc.pem\nb.pem\n'),
      names,
    );
    assert.match(plan.reload ?? '', /entries reordered and the names of a.pem are unknown/);
  });

  it('accepts an insertion before existing entries when SNI filters name distinct hosts', () => {
    const plan = planCrtListChange(
      ['l'],
      parseCrtList('a.pem a\nb.pem b\n'),
      parseCrtList('a.pem a\nc.pem c\nb.pem b\n'),
      names,
    );
    assert.equal(plan.reload, undefined);
    assert.deepEqual(plan.updates, [{ op: 'crtlist.add', crtList: 'l', line: 'c.pem c' }]);
  });
});
