/**
 * The commentator's domain knowledge: for every event type, the log level and a one-line
 * message an operator understands. Levels: `error` for failures that need action, `warn` for
 * rejections and losses, `debug` for high-volume routine events, `info` otherwise.
 */
import type { DomainEventOf, DomainEventType } from '../events/domain-events.js';

/** Log level the commentator uses. */
export type CommentLevel = 'debug' | 'info' | 'warn' | 'error';

/** Level and message for one event. */
export interface Comment {
  readonly level: CommentLevel;
  readonly message: string;
}

type Describers = { readonly [K in DomainEventType]: (event: DomainEventOf<K>) => Comment };

const debug = (message: string): Comment => ({ level: 'debug', message });
const info = (message: string): Comment => ({ level: 'info', message });
const warn = (message: string): Comment => ({ level: 'warn', message });
const error = (message: string): Comment => ({ level: 'error', message });
const ref = (r: { namespace: string; name: string }): string => `${r.namespace}/${r.name}`;
const pod = (e: { podNamespace: string; podName: string }): string =>
  `${e.podNamespace}/${e.podName}`;

const DESCRIBERS: Describers = {
  'config.resource.changed': (e) => info(`HAProxyTemplateConfig ${ref(e.resource)} changed`),
  'config.parsed': (e) => info(`configuration ${e.configVersion} parsed`),
  'config.validation.request': (e) => debug(`validating configuration ${e.configVersion}`),
  'config.validation.response': (e) =>
    debug(
      `validator ${e.responder}: ${e.isValid ? 'valid' : `invalid (${e.errors.length} errors)`}`,
    ),
  'config.validated': (e) => info(`configuration ${e.configVersion} validated`),
  'config.invalid': (e) =>
    warn(
      `configuration ${e.configVersion} rejected by ${Object.keys(e.errorsByValidator).join(', ')}; keeping the running configuration`,
    ),
  'secret.resource.changed': (e) => info(`credentials Secret ${ref(e.resource)} changed`),
  'credentials.updated': (e) => info(`credentials updated (Secret version ${e.secretVersion})`),
  'credentials.invalid': (e) => error(`credentials Secret ${e.secretVersion} unusable: ${e.error}`),
  'cert.resource.changed': (e) => info(`webhook certificate Secret ${ref(e.resource)} changed`),
  'cert.parsed': (e) => info(`webhook certificate ${e.version} loaded, valid until ${e.notAfter}`),
  'resource.index.updated': (e) =>
    debug(
      `${e.resourceType} changed: +${e.changeStats.created} ~${e.changeStats.modified} -${e.changeStats.deleted}${e.isInitialSync ? ' (initial sync)' : ''}`,
    ),
  'resource.sync.complete': (e) => info(`${e.resourceType} synced with ${e.initialCount} objects`),
  'index.synchronized': (e) =>
    info(`all watched resources synced (${Object.keys(e.resourceCounts).length} types)`),
  'reconciliation.triggered': (e) => info(`reconciliation triggered: ${e.reason}`),
  'reconciliation.started': (e) => debug(`reconciliation started: ${e.reason}`),
  'reconciliation.completed': (e) => info(`reconciliation completed in ${e.durationMs} ms`),
  'reconciliation.failed': (e) => error(`reconciliation failed in ${e.phase}: ${e.error}`),
  'template.rendered': (e) =>
    info(`templates rendered in ${e.durationMs} ms (${e.checksum.slice(0, 19)})`),
  'template.render.failed': (e) =>
    error(
      e.templateName === undefined
        ? `templates failed to render: ${e.error}`
        : `template ${e.templateName} failed to render: ${e.error}`,
    ),
  'validation.started': (e) => debug(`validating rendered config ${e.checksum.slice(0, 19)}`),
  'validation.completed': (e) =>
    info(`rendered config valid (${e.durationMs} ms, ${e.warnings.length} warnings)`),
  'validation.failed': (e) =>
    error(`rendered config invalid (${e.phase}): ${e.errors.slice(0, 3).join('; ')}`),
  'validation_tests.started': (e) => info(`running ${e.testCount} validation tests`),
  'validation_tests.completed': (e) =>
    info(`validation tests: ${e.passed} passed, ${e.failed} failed in ${e.durationMs} ms`),
  'validation_tests.failed': (e) =>
    warn(`validation tests failed: ${e.failedTests.join(', ') || (e.error ?? 'unknown error')}`),
  'deployment.scheduled': (e) =>
    info(`deployment scheduled to ${e.endpoints.length} pods (${e.lane}): ${e.reason}`),
  'deployment.started': (e) => debug(`deploying to ${e.endpoints.length} pods`),
  'instance.deployed': (e) =>
    info(
      `deployed to ${pod(e.endpoint)} in ${e.durationMs} ms${e.isReloadRequired ? ' with reload' : ' without reload'}`,
    ),
  'instance.deployment.failed': (e) => error(`deployment to ${pod(e.endpoint)} failed: ${e.error}`),
  'deployment.completed': (e) =>
    e.failed > 0
      ? warn(`deployment finished: ${e.succeeded}/${e.total} pods, ${e.failed} failed`)
      : info(`deployment finished: ${e.succeeded}/${e.total} pods in ${e.durationMs} ms`),
  'deployment.skipped': (e) => debug(`deployment skipped: ${e.reason}`),
  'deployment.cancel.request': (e) => warn(`deployment cancelled: ${e.reason}`),
  'drift.prevention.triggered': (e) => info(`drift prevention redeploy after ${e.idleMs} ms idle`),
  'haproxy.pods.discovered': (e) => info(`${e.endpoints.length} HAProxy pods admitted`),
  'haproxy.pod.terminated': (e) => info(`HAProxy pod ${pod(e)} terminated`),
  'haproxy.pod.rejected': (e) => warn(`HAProxy pod ${pod(e)} refused: ${e.reason}`),
  'runtime.fastpath.result': (e) =>
    debug(
      `runtime lane on ${pod(e.endpoint)}: ${e.isApplied ? 'applied' : `fell back (${e.fallbackReason ?? 'unknown'})`}`,
    ),
  'deploy.runtime.divergence': (e) =>
    warn(`runtime state of ${pod(e.endpoint)} diverges: ${e.detail}`),
  'runtime.map.divergence': (e) => warn(`map ${e.mapName} on ${pod(e.endpoint)} diverges`),
  'render.gate.completed': (e) =>
    e.isAccepted
      ? debug(`render gate accepted ${e.checksum.slice(0, 19)}`)
      : warn(`render gate refused ${e.checksum.slice(0, 19)}: ${e.error ?? ''}`),
  'config.published': (e) => info(`published ${ref(e.haproxyCfg)} with ${e.fileCount} files`),
  'config.publish.failed': (e) => error(`publishing config failed: ${e.error}`),
  'config.applied.to.pod': (e) => debug(`config ${e.checksum.slice(0, 19)} applied to ${pod(e)}`),
  'config.deployed.publish.request': (e) =>
    debug(`publishing deployed config ${e.checksum.slice(0, 19)}`),
  'resources.applied': (e) => info(`${e.appliedCount} template resources applied`),
  'status.update.completed': (e) =>
    debug(`status (${e.phase}): ${e.appliedCount} applied, ${e.skippedCount} unchanged`),
  'status.update.failed': (e) =>
    error(
      `status (${e.phase}) of ${e.target} failed${e.isRetriable ? ' (will retry)' : ''}: ${e.error}`,
    ),
  'webhook.validation.request': (e) => debug(`admission review ${e.operation} ${e.kind} ${ref(e)}`),
  'webhook.validation.allowed': (e) => debug(`admission allowed ${e.kind} (${e.uid})`),
  'webhook.validation.denied': (e) => warn(`admission denied ${e.kind}: ${e.reason}`),
  'webhook.validation.error': (e) => error(`admission review of ${e.kind} failed: ${e.error}`),
  'webhook.validation.request.sg': (e) => debug(`dry-run validating ${e.kind} ${ref(e)}`),
  'webhook.validation.response.sg': (e) =>
    debug(`dry-run ${e.responder}: ${e.isAllowed ? 'allowed' : `denied (${e.reason ?? ''})`}`),
  'leader.election.started': (e) =>
    info(`leader election started as ${e.identity} on ${e.leaseNamespace}/${e.leaseName}`),
  'leader.became': (e) => info(`became leader (${e.identity}, epoch ${e.epoch})`),
  'leader.lost': (e) => warn(`lost leadership (${e.identity}): ${e.reason}`),
  'leader.observed': (e) => info(`leader is ${e.leader}${e.isSelf ? ' (this replica)' : ''}`),
  'http.resource.updated': (e) => debug(`HTTP resource ${e.url} changed`),
  'http.resource.accepted': (e) => info(`HTTP resource ${e.url} accepted`),
  'http.resource.rejected': (e) => warn(`HTTP resource ${e.url} rejected: ${e.error}`),
  'proposal.validation.requested': (e) => debug(`validating proposal: ${e.description}`),
  'proposal.validation.completed': (e) =>
    debug(`proposal ${e.isValid ? 'valid' : `invalid: ${e.errors.join('; ')}`}`),
};

/** Level and message for `event`. */
export function describeEvent<K extends DomainEventType>(event: DomainEventOf<K>): Comment {
  const describer = DESCRIBERS[event.type] as (e: DomainEventOf<K>) => Comment;
  return describer(event);
}
