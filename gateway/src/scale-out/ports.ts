import type { LocalSessionSockets, SessionEvents } from './events/ports.ts';
import type { Area } from '../lifecycle/area.ts';
import type { RedisLink } from '../redis/link.ts';
import type { BusSeal } from './bus-seal.ts';
import type { ConnectionLease, LeaseTiming } from './connection-lease.ts';
import type { MessageClaim } from './message-claim.ts';
import type { PresenceKeys, PresenceTiming } from './presence.ts';

export type {
  BusSeal,
  ConnectionLease,
  LeaseTiming,
  MessageClaim,
  PresenceKeys,
  PresenceTiming,
  RedisLink,
};

/** What gateways behind one reverse proxy share besides the databases (DESIGN "Scale-out"). */
export interface ScaleOut {
  /** This gateway's id among its peers (a random UUID per process). */
  readonly gatewayId: string;
  /**
   * The shared Redis connections, this gateway's liveness key and the seal that authenticates
   * what gateways write for one another, for the parts that keep their own shared state there
   * (the approval board, the canvas); undefined for a single gateway, and when sharing is
   * refused.
   */
  readonly shared: { link: RedisLink; presence: PresenceKeys; seal: BusSeal } | undefined;
  /**
   * Why this gateway does not share what needs the cluster secret although `cache_url` is set
   * (and how to fix it), for /status; undefined otherwise.
   */
  readonly refused: string | undefined;
  /** Frames for a session's sockets on whichever gateway they are connected. */
  readonly events: SessionEvents;
  /**
   * A lease for a connection only one gateway may hold (`key` names it); undefined for a single
   * gateway, which holds everything.
   */
  lease(key: string): ConnectionLease | undefined;
  /** Claims a message id once among the gateways; undefined for a single gateway. */
  readonly claim: MessageClaim | undefined;
  /** Which adapter each part uses right now, and why sharing is refused (for /status). */
  backends(): Record<string, string>;
  close(): Promise<void>;
}

/** The scale-out area's options (tests shorten the timings). */
export interface ScaleOutOptions {
  /** How long this gateway's presence key lives and how often it is refreshed. */
  presenceTiming?: PresenceTiming;
  /** How long a channel's connection lease outlives a gateway that died holding it. */
  leaseTiming?: LeaseTiming;
}

export type { LocalSessionSockets, SessionEvents };

/** The scale-out area as other areas see it. */
export interface ScaleOutArea extends Area {
  /** The shared connections and session events; 503 before the phase has run. */
  readonly scaleOut: () => ScaleOut;
  /** The same, or undefined before the phase has run. */
  readonly peek: () => ScaleOut | undefined;
}
