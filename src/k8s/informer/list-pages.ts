/** A complete, consistent list read page by page (`limit` + `continue`). */
import { AbortedError } from '../../core/errors.js';
import type { KubeObject } from '../client/kube-object.js';
import { GoneError } from '../client/kube-errors.js';
import type { ListWatchTransport } from './list-watch-transport.js';

/** Result of listAll: every item and the list's resourceVersion to watch from. */
export interface ListResult {
  readonly items: KubeObject[];
  /** Opaque resourceVersion of the list snapshot. */
  readonly resourceVersion: string;
  /** How many times paging restarted because a continue token expired (410). */
  readonly restarts: number;
}

/** Options of listAll. */
export interface ListAllOptions {
  readonly pageSize?: number;
  readonly labelSelector?: string;
  /** Give up after this many 410 restarts (default 5) and rethrow the GoneError. */
  readonly maxRestarts?: number;
}

/**
 * Reads every page. All pages of one pass belong to the same snapshot (the continue token pins
 * it); when the snapshot is compacted away mid-way the API answers 410 and the list restarts
 * from the first page, because mixing pages of two snapshots would lose or duplicate objects.
 */
export async function listAll(
  transport: ListWatchTransport,
  options: ListAllOptions,
  signal: AbortSignal,
): Promise<ListResult> {
  const limit = options.pageSize ?? 500;
  const maxRestarts = options.maxRestarts ?? 5;
  for (let restarts = 0; ; restarts++) {
    const items: KubeObject[] = [];
    let continueToken: string | undefined;
    let resourceVersion = '';
    try {
      do {
        if (signal.aborted) throw new AbortedError(`list ${transport.description}`);
        const page = await transport.listPage(
          {
            limit,
            ...(continueToken !== undefined && { continueToken }),
            ...(options.labelSelector !== undefined && { labelSelector: options.labelSelector }),
          },
          signal,
        );
        for (const item of page.items) items.push(item);
        resourceVersion = page.metadata?.resourceVersion ?? resourceVersion;
        continueToken = page.metadata?.continue || undefined;
      } while (continueToken !== undefined);
      return { items, resourceVersion, restarts };
    } catch (err) {
      if (!(err instanceof GoneError) || continueToken === undefined || restarts >= maxRestarts)
        throw err;
    }
  }
}
