import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseHaproxyCheckOutput } from '../../../../src/haproxy/validate/parse-haproxy-check-output.js';

const SCRATCH = '/tmp/haptic-check-Ab12Cd';

describe('parseHaproxyCheckOutput', () => {
  it('turns parsing alerts into file/line/message errors without PIDs or summary lines', () => {
    const out = [
      '[NOTICE]   (15015) : haproxy version is 2.6.12-1+deb12u4',
      '[NOTICE]   (15015) : path to executable is /usr/sbin/haproxy',
      "[ALERT]    (15015) : config : parsing [haproxy.cfg:11] : unknown keyword 'bogus' in 'frontend' section",
      "[ALERT]    (15015) : config : parsing [haproxy.cfg:15] : balance only supports 'roundrobin'.",
      '[ALERT]    (15015) : config : Error(s) found in configuration file : haproxy.cfg',
      '[ALERT]    (15015) : config : Fatal errors found in configuration.',
    ].join('\n');
    const parsed = parseHaproxyCheckOutput(out, { baseDir: SCRATCH });
    assert.deepEqual(parsed.errors, [
      { file: 'haproxy.cfg', line: 11, message: "unknown keyword 'bogus' in 'frontend' section" },
      { file: 'haproxy.cfg', line: 15, message: "balance only supports 'roundrobin'." },
    ]);
    assert.deepEqual(parsed.warnings, []);
  });

  it('makes absolute scratch paths relative in file names and in messages', () => {
    const out = [
      `[ALERT]    (77) : config : Parsing [${SCRATCH}/haproxy.cfg:8]: failed to open pattern file <${SCRATCH}/maps/host.map>.`,
      '[ALERT]    (77) : config : Fatal errors found in configuration.',
    ].join('\n');
    const parsed = parseHaproxyCheckOutput(out, { baseDir: `${SCRATCH}/` });
    assert.deepEqual(parsed.errors, [
      { file: 'haproxy.cfg', line: 8, message: 'failed to open pattern file <maps/host.map>.' },
    ]);
  });

  it('joins continuation lines into the warning they belong to', () => {
    const out = [
      "[WARNING]  (15042) : config : missing timeouts for frontend 'f'.",
      '   | While not properly invalid, you will certainly encounter various problems',
      '   | with such a configuration.',
    ].join('\n');
    const parsed = parseHaproxyCheckOutput(out, { baseDir: SCRATCH });
    assert.deepEqual(parsed.warnings, [
      {
        file: 'haproxy.cfg',
        line: null,
        message:
          "missing timeouts for frontend 'f'. While not properly invalid, you will certainly encounter various problems with such a configuration.",
      },
    ]);
  });

  it('strips the timestamp older releases print before the PID', () => {
    const out = "[ALERT] 123/045512 (4242) : parsing [conf/haproxy.cfg:3] : unknown keyword 'x'";
    const parsed = parseHaproxyCheckOutput(out, { baseDir: SCRATCH });
    assert.deepEqual(parsed.errors, [
      { file: 'conf/haproxy.cfg', line: 3, message: "unknown keyword 'x'" },
    ]);
  });

  it('keeps a summary line when it is the only error reported', () => {
    const out = '[ALERT]    (9) : config : Fatal errors found in configuration.';
    const parsed = parseHaproxyCheckOutput(out, { baseDir: SCRATCH, configPath: 'main.cfg' });
    assert.deepEqual(parsed.errors, [
      { file: 'main.cfg', line: null, message: 'Fatal errors found in configuration.' },
    ]);
  });
});
