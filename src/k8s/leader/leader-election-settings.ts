/**
 * Leader-election settings from HAProxyTemplateConfig `spec.controller.leaderElection`, with
 * the defaults of the original system (lease `haptic-leader`, 15 s / 10 s / 2 s).
 */
import { InvalidArgumentError } from '../../core/errors.js';
import { goDurationMs } from '../crds/go-duration.js';
import type { HAProxyTemplateConfigSpec } from '../crds/haproxy-template-config.js';
import {
  DEFAULT_LEASE_DURATION_MS,
  DEFAULT_RENEW_DEADLINE_MS,
  DEFAULT_RETRY_PERIOD_MS,
} from './lease-elector.js';

/** Default name of the Lease object. */
export const DEFAULT_LEASE_NAME = 'haptic-leader';

/** Resolved leader-election settings. */
export interface LeaderElectionSettings {
  /** False: the replica assumes it is alone and leads at once (single-replica mode). */
  readonly enabled: boolean;
  readonly leaseName: string;
  readonly leaseDurationMs: number;
  readonly renewDeadlineMs: number;
  readonly retryPeriodMs: number;
}

type ControllerSpec = HAProxyTemplateConfigSpec['controller'];

/**
 * Applies defaults and checks leaseDuration > renewDeadline > retryPeriod > 0; throws
 * InvalidArgumentError naming the field otherwise.
 */
export function leaderElectionSettings(controller: ControllerSpec): LeaderElectionSettings {
  const le = controller?.leaderElection;
  const ms = (value: string | undefined, field: string, fallback: number): number =>
    value === undefined || value === ''
      ? fallback
      : goDurationMs(value, `spec.controller.leaderElection.${field}`);
  const settings: LeaderElectionSettings = {
    enabled: le?.enabled ?? true,
    leaseName: le?.leaseName ?? DEFAULT_LEASE_NAME,
    leaseDurationMs: ms(le?.leaseDuration, 'leaseDuration', DEFAULT_LEASE_DURATION_MS),
    renewDeadlineMs: ms(le?.renewDeadline, 'renewDeadline', DEFAULT_RENEW_DEADLINE_MS),
    retryPeriodMs: ms(le?.retryPeriod, 'retryPeriod', DEFAULT_RETRY_PERIOD_MS),
  };
  if (
    !(settings.retryPeriodMs > 0) ||
    !(settings.renewDeadlineMs > settings.retryPeriodMs) ||
    !(settings.leaseDurationMs > settings.renewDeadlineMs)
  )
    throw new InvalidArgumentError(
      `spec.controller.leaderElection: need leaseDuration > renewDeadline > retryPeriod > 0, got ${settings.leaseDurationMs} / ${settings.renewDeadlineMs} / ${settings.retryPeriodMs} ms`,
    );
  return settings;
}
