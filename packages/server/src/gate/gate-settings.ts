/** The contract gate's settings (docs/contracts.md, "The gate"), read once. */
import type { SettingSpec, Settings } from '@confbus/core';

export const gateSettingSpecs: readonly SettingSpec[] = [
  {
    key: 'confbus.contracts.gate.enabled',
    type: 'boolean',
    default: true,
    description:
      'Judge each new commit of the default repository against its contracts (.confbus/contracts/ and those services publish) before announcing it; an application that breaks one is served its last valid commit. Without contracts it costs one listing per commit',
  },
  {
    key: 'confbus.contracts.gate.max-history',
    type: 'integer',
    default: 50,
    min: 1,
    max: 1000,
    description:
      'Commits the gate walks back from a head that breaks a contract to find the last valid one; none valid within them: the head is served and its violations reported',
  },
];

export interface GateSettings {
  readonly enabled: boolean;
  readonly maxHistory: number;
}

export function readGateSettings(settings: Settings): GateSettings {
  return {
    enabled: settings.boolean('confbus.contracts.gate.enabled'),
    maxHistory: settings.number('confbus.contracts.gate.max-history'),
  };
}
