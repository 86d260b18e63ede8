/**
 * Keeps a RestMapper current while CRDs come and go: an informer on
 * CustomResourceDefinitions (metadata only: CRD bodies are large) triggers a debounced
 * `refresh()` on every change after the initial list. A CRD becomes served only once
 * Established, which is a status update, so the update event refreshes again at that point.
 */
import { sleep } from '../../core/abort.js';
import { CUSTOM_RESOURCE_DEFINITIONS } from '../client/api-resource.js';
import type { KubeClient } from '../client/kube-client.js';
import { Informer } from '../informer/informer.js';
import { metadataOnly } from '../informer/on-demand-store.js';
import type { RestMapper } from './rest-mapper.js';

/** Options of refreshOnCrdChanges. */
export interface RefreshOnCrdChangesOptions {
  /** Coalesce changes arriving within this window into one refresh (default 250 ms). */
  readonly debounceMs?: number;
  /** Told about watch and discovery failures (both are retried). */
  readonly onError?: (err: unknown) => void;
}

/** Runs until `signal` aborts; never rejects. */
export async function refreshOnCrdChanges(
  client: KubeClient,
  mapper: RestMapper,
  signal: AbortSignal,
  options: RefreshOnCrdChangesOptions = {},
): Promise<void> {
  const onError = options.onError;
  const informer = Informer.forResource(client, CUSTOM_RESOURCE_DEFINITIONS, {
    name: 'customresourcedefinitions',
    indexBy: ['metadata.name'],
    reduce: metadataOnly,
    ...(onError !== undefined && { onError }),
  });
  let scheduled = false;
  const schedule = (): void => {
    if (scheduled) return;
    scheduled = true;
    void (async () => {
      try {
        await sleep(options.debounceMs ?? 250, signal);
        scheduled = false;
        await mapper.refresh(signal);
      } catch (err) {
        scheduled = false;
        if (!signal.aborted) onError?.(err);
      }
    })();
  };
  informer.addHandlers({
    onAdd: (_o, initial) => {
      if (!initial) schedule();
    },
    onUpdate: schedule,
    onDelete: schedule,
  });
  await informer.run(signal);
}
