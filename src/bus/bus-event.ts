/**
 * The only shape the bus knows: an object with a string `type` discriminant. The bus is
 * domain-agnostic (the domain catalogue lives in src/controller/events/), so everything here is
 * generic over `E extends BusEvent`.
 */
export interface BusEvent {
  /** Discriminant, a dotted past-tense fact such as `deployment.completed`. */
  readonly type: string;
}

/** A scatter-gather request: responders answer with a {@link ResponseEvent} naming `requestId`. */
export interface RequestEvent extends BusEvent {
  /** Unique per request; responses carry it back. */
  readonly requestId: string;
}

/** A scatter-gather answer to the request whose `requestId` it repeats. */
export interface ResponseEvent extends BusEvent {
  /** The `requestId` of the request being answered. */
  readonly requestId: string;
  /** Stable name of the responder, matched against `expectedResponders`. */
  readonly responder: string;
}

/** Narrows a union of events to the members whose `type` is `T`. */
export type EventOfType<E extends BusEvent, T extends E['type']> = Extract<E, { type: T }>;
