import type { Clock } from '../../clock.js';
import type { Repositories } from '../../db/repositories/index.js';
import { ValidationError } from '../errors.js';
import { simulateHistory } from './simulated-history.js';
import {
  deleteSimulatedHistory,
  SIMULATION_SOURCE,
  type SimulatedShipmentHook,
  type SimulatedShipmentRemoval,
  writeSimulatedHistory,
} from './simulated-history.writer.js';
import { addCalendarDays } from './working-calendar.js';

export interface SimulationRequest {
  shipments: number;
  weeks: number;
  seed: string | number;
  /** The last day, `YYYY-MM-DD`; today (UTC) when left out. */
  end?: string;
}

/** What a simulated history put into an account. */
export interface SimulationReport {
  shipments: number;
  events: number;
  weeks: number;
  seed: string;
  /** First and last day labels were created on, `YYYY-MM-DD`. */
  from: string;
  to: string;
  source: string;
}

/** What delivery intelligence is told of simulated shipments, as of those a carrier tracks. */
export interface SimulationHooks {
  onShipments?: SimulatedShipmentHook;
  beforeDelete?: SimulatedShipmentRemoval;
}

/**
 * `waybill simulate history|delete` (through the admin API): a reproducible simulated history written into an
 * account, and deleted from it again. A history ending today stops at the current time: its latest parcels are
 * still on their way.
 */
export class SimulatedHistories {
  constructor(
    private readonly repos: Repositories,
    private readonly clock: Clock,
    private readonly hooks: SimulationHooks = {},
  ) {}

  async create(accountId: number, request: SimulationRequest): Promise<SimulationReport> {
    const now = this.clock.now().toISOString();
    const today = now.slice(0, 10);
    const end = request.end ?? today;
    if (end > today) throw ValidationError.at(['end'], `end must not be after today (${today}): a history is what already happened.`);
    const history = simulateHistory({
      shipments: request.shipments,
      weeks: request.weeks,
      seed: request.seed,
      end,
      now: end === today ? now : undefined,
    });
    const written = await writeSimulatedHistory(this.repos, accountId, history, this.hooks.onShipments, now);
    return {
      shipments: written.shipments,
      events: written.events,
      weeks: request.weeks,
      seed: String(request.seed),
      from: addCalendarDays(end, 1 - 7 * request.weeks),
      to: end,
      source: SIMULATION_SOURCE,
    };
  }

  /** Deletes the account's simulated shipments; answers how many. */
  delete(accountId: number): Promise<number> {
    return deleteSimulatedHistory(this.repos, accountId, this.hooks.beforeDelete);
  }
}
