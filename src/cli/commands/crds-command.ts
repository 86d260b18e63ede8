/**
 * `haptic crds print` writes the project's CRDs as multi-document YAML; `haptic crds apply`
 * installs them with Server-Side Apply (field manager haptic-crd-installer) and waits until
 * the API server serves them.
 */
import type { Command } from 'commander';
import { KubeClient } from '../../k8s/client/kube-client.js';
import { resolveConnection } from '../../k8s/client/kube-config.js';
import { applyCrds, CRD_FIELD_MANAGER } from '../../k8s/crds/apply-crds.js';
import { crdsYaml } from '../../k8s/crds/crds-yaml.js';
import { projectCrds } from '../../k8s/crds/project-crds.js';
import type { CommandContext } from '../command-context.js';

/** Registers `haptic crds print` and `haptic crds apply`. */
export function registerCrdsCommand(program: Command, ctx: CommandContext): void {
  const crds = program
    .command('crds')
    .description('print or install the CustomResourceDefinitions of haptic (haproxy-haptic.org)');

  crds
    .command('print')
    .description('write every CRD as multi-document YAML to stdout (e.g. for kubectl apply -f -)')
    .action(() => {
      ctx.io.out(crdsYaml(projectCrds()));
    });

  crds
    .command('apply')
    .description(
      `install or update every CRD with Server-Side Apply (field manager ${CRD_FIELD_MANAGER}, ` +
        'force) and wait until each is Established',
    )
    .option(
      '--kubeconfig <path>',
      'kubeconfig file (default: $KUBECONFIG, in-cluster, ~/.kube/config)',
    )
    .option('--context <name>', 'kubeconfig context (default: the current context)')
    .option('--timeout <seconds>', 'how long to wait for Established', '60')
    .addHelpText(
      'after',
      '\nNeeds permission to get and patch customresourcedefinitions.apiextensions.k8s.io.\n' +
        'Example: haptic crds apply --context kind-dev',
    )
    .action(async (opts: { kubeconfig?: string; context?: string; timeout: string }) => {
      const timeoutSeconds = Number(opts.timeout);
      if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) {
        ctx.io.err(
          `error: --timeout must be a positive number of seconds, got "${opts.timeout}"\n`,
        );
        ctx.setExitCode(2);
        return;
      }
      const connection = resolveConnection({
        ...(opts.kubeconfig !== undefined && { kubeconfig: opts.kubeconfig }),
        ...(opts.context !== undefined && { context: opts.context }),
      });
      const client = new KubeClient(connection);
      try {
        const names = await applyCrds(client, projectCrds(), {
          signal: ctx.signal,
          timeoutMs: timeoutSeconds * 1000,
        });
        for (const name of names) ctx.io.out(`customresourcedefinition/${name} established\n`);
      } finally {
        client.close();
      }
    });
}
