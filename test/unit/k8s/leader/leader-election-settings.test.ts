import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidArgumentError } from '../../../../src/core/errors.js';
import { leaderElectionSettings } from '../../../../src/k8s/leader/leader-election-settings.js';

describe('leaderElectionSettings', () => {
  it('defaults to enabled, lease haptic-leader and 15 s / 10 s / 2 s', () => {
    assert.deepEqual(leaderElectionSettings(undefined), {
      enabled: true,
      leaseName: 'haptic-leader',
      leaseDurationMs: 15_000,
      renewDeadlineMs: 10_000,
      retryPeriodMs: 2_000,
    });
  });

  it('reads Go durations, the lease name and the enabled flag from the config', () => {
    assert.deepEqual(
      leaderElectionSettings({
        leaderElection: {
          enabled: false,
          leaseName: 'edge',
          leaseDuration: '30s',
          renewDeadline: '20s',
          retryPeriod: '5s',
        },
      }),
      {
        enabled: false,
        leaseName: 'edge',
        leaseDurationMs: 30_000,
        renewDeadlineMs: 20_000,
        retryPeriodMs: 5_000,
      },
    );
  });

  it('rejects a renew deadline not shorter than the lease duration', () => {
    assert.throws(
      () => leaderElectionSettings({ leaderElection: { renewDeadline: '15s' } }),
      (err: unknown) =>
        err instanceof InvalidArgumentError && /leaseDuration > renewDeadline/.test(err.message),
    );
  });

  it('rejects a malformed duration, naming the field', () => {
    assert.throws(
      () => leaderElectionSettings({ leaderElection: { retryPeriod: 'soon' } }),
      (err: unknown) =>
        err instanceof InvalidArgumentError &&
        /spec\.controller\.leaderElection\.retryPeriod/.test(err.message),
    );
  });
});
