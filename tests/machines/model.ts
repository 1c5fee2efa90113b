// xstate/graph's default serialisation drops transitions that keep the state value (self-loops
// such as a heartbeat, an acknowledged message or a skipped connect), so shortest paths never take
// them. Naming every transition by its event and source snapshot makes each one a vertex of its own.
import type { AnyMachineSnapshot, EventObject } from 'xstate';

export function everyTransition(
  snapshot: AnyMachineSnapshot,
  event: EventObject | undefined,
  previous?: AnyMachineSnapshot,
): string {
  if (!event || !previous) return '';
  return ` via ${event.type} from ${JSON.stringify(previous.value)} ${JSON.stringify(previous.context)}`;
}

export const modelOptions = { serializeTransition: everyTransition };
