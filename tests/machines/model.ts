// xstate/graph's default serialisation drops transitions that keep the state value (self-loops
// such as a heartbeat, an acknowledged message or a skipped connect), so shortest paths never take
// them. Naming every transition by its event and source snapshot makes each one a vertex of its own.
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { configureApi } from '../../src/api/client';
import { fakeFetch, freshStores, type FakeRoute } from '../api/helpers';

export function everyTransition(
  snapshot: AnyMachineSnapshot,
  event: EventObject | undefined,
  previous?: AnyMachineSnapshot,
): string {
  if (!event || !previous) return '';
  return ` via ${event.type} from ${JSON.stringify(previous.value)} ${JSON.stringify(previous.context)}`;
}

export const modelOptions = { serializeTransition: everyTransition };

/** Lets the actors' promises and timers of 0 ms run: `rounds` macrotasks. */
export async function settle(rounds = 6): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((r) => setTimeout(r, 0));
}

/** Fresh storage and the API client on a fake transport answering from `routes` (changed by the test as it goes). */
export function fakeApi(routes: Record<string, FakeRoute>) {
  freshStores();
  const transport = fakeFetch(routes);
  configureApi({ baseURL: 'http://api.test', fetch: transport.fetch });
  return transport;
}
