import type { ToolSettings } from '../config';

/**
 * The settings of the programs this process runs (ffmpeg, LibreOffice, the CJK font pdf.js draws with) and of the
 * worker pools it starts. Set once: by buildApp from its config, and in a heavy worker from its start data, as the
 * code using them runs in both and is called from places that have no config at hand (pure format code, tasks).
 * Until then: no configured program (the ones found on this machine) and the schema's limits.
 */
export const TOOL_DEFAULTS: ToolSettings = { mediaTimeoutMs: 300_000, ocrMaxFrames: 2400 };
let current = TOOL_DEFAULTS;

export function setToolSettings(settings: ToolSettings): void {
  current = { ...settings };
}

export function toolSettings(): ToolSettings {
  return current;
}
